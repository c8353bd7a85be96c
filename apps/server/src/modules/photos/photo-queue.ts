/**
 * A small in-process queue for CPU-heavy jobs (photo processing), bounded in three ways:
 * - at most `concurrency` jobs run at once;
 * - at most `maxWaiting` jobs wait; past that a job is refused at once (`full`) rather than queued for long;
 * - an owner (a member) runs one job at a time and holds at most `perOwner` jobs (running or waiting); more are
 *   refused at once (`owner`).
 * A free slot goes to the waiting job whose owner has the fewest jobs ahead of it, then to the oldest: a member
 * with one photo goes before the second and third photo of someone who sent several at once.
 */

export type QueueRefusal = 'full' | 'owner';

export class QueueRefusedError extends Error {
  constructor(public readonly reason: QueueRefusal) {
    super(reason === 'full' ? 'the queue is full' : 'this owner has too many jobs in the queue');
    this.name = 'QueueRefusedError';
  }
}

export interface WorkQueueOptions {
  concurrency: number;
  maxWaiting: number;
  perOwner: number;
}

interface Job {
  owner: string;
  /** How many jobs of the same owner were in the queue when this one came. */
  turn: number;
  start: () => void;
}

export class WorkQueue {
  private running = 0;
  private readonly waiting: Job[] = [];
  /** Per owner: jobs held (running or waiting) and whether one of them runs. */
  private readonly owners = new Map<string, { held: number; running: boolean }>();

  constructor(private readonly options: WorkQueueOptions) {}

  /** Jobs running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Whether a job of a new owner would be refused as `full` right now. */
  get isFull(): boolean {
    return this.running >= this.options.concurrency && this.waiting.length >= this.options.maxWaiting;
  }

  /** Runs `work` when its turn comes; refuses at once (QueueRefusedError) when the queue or the owner is full. */
  run<T>(owner: string, work: () => Promise<T>): Promise<T> {
    const state = this.owners.get(owner) ?? { held: 0, running: false };
    if (state.held >= this.options.perOwner) return Promise.reject(new QueueRefusedError('owner'));
    const startsNow = this.running < this.options.concurrency && !state.running;
    if (!startsNow && this.waiting.length >= this.options.maxWaiting) return Promise.reject(new QueueRefusedError('full'));

    const turn = state.held;
    state.held++;
    this.owners.set(owner, state);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        state.running = true;
        // A job that throws synchronously still frees its slot.
        Promise.resolve()
          .then(work)
          .then(resolve, reject)
          .finally(() => this.finish(owner, state));
      };
      if (startsNow) start();
      else this.waiting.push({ owner, turn, start });
    });
  }

  private finish(owner: string, state: { held: number; running: boolean }): void {
    this.running--;
    state.running = false;
    state.held--;
    if (state.held === 0) this.owners.delete(owner);
    this.startNext();
  }

  private startNext(): void {
    while (this.running < this.options.concurrency) {
      let best = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const job = this.waiting[i];
        if (this.owners.get(job.owner)?.running) continue;
        if (best === -1 || job.turn < this.waiting[best].turn) best = i;
      }
      if (best === -1) return;
      const [job] = this.waiting.splice(best, 1);
      job.start();
    }
  }
}
