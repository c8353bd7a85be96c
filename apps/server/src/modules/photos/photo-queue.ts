import { AsyncResource } from 'node:async_hooks';
/**
 * A small in-process queue for CPU-heavy jobs (photo processing), bounded in three ways:
 * - at most `concurrency` jobs run at once;
 * - at most `maxWaiting` jobs wait; past that a job is refused at once (`full`) rather than queued for long;
 * - an owner (a member) runs one job at a time and holds at most `perOwner` jobs (running or waiting); more are
 *   refused at once (`owner`).
 * A free slot goes to the waiting job whose owner has used the queue least lately (processing time, halved every
 * `halfLifeMs`), then to the oldest: a member with one photo goes before members who keep the queue busy, even
 * when each of them sends one photo at a time.
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
  /** How fast an owner's use of the queue is forgotten (default one minute). */
  halfLifeMs?: number;
  /** Milliseconds from any fixed point (tests move it by hand). */
  now?: () => number;
}

interface Job {
  owner: string;
  start: () => void;
}

export class WorkQueue {
  private running = 0;
  private readonly waiting: Job[] = [];
  /** Per owner: jobs held (running or waiting) and whether one of them runs. */
  private readonly owners = new Map<string, { held: number; running: boolean }>();
  /** Per owner: processing time used, as of `at` (it halves every half-life after that). */
  private readonly used = new Map<string, { ms: number; at: number }>();
  private readonly halfLifeMs: number;
  private readonly now: () => number;

  constructor(private readonly options: WorkQueueOptions) {
    this.halfLifeMs = options.halfLifeMs ?? 60_000;
    this.now = options.now ?? (() => performance.now());
  }

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

    state.held++;
    this.owners.set(owner, state);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        state.running = true;
        const started = this.now();
        // A job that throws synchronously still frees its slot.
        Promise.resolve()
          .then(work)
          .then(resolve, reject)
          .finally(() => this.finish(owner, state, this.now() - started));
      };
      if (startsNow) start();
      // A waiting job starts from another job's finish; bound to its own caller's async context, so that a unit of
      // work (withTransaction) of the request that finished first is never joined by this one.
      else this.waiting.push({ owner, start: AsyncResource.bind(start) });
    });
  }

  /** The owner's processing time lately (halved every half-life), as of `at`. */
  usedMs(owner: string, at = this.now()): number {
    const entry = this.used.get(owner);
    return entry ? entry.ms * 0.5 ** ((at - entry.at) / this.halfLifeMs) : 0;
  }

  private finish(owner: string, state: { held: number; running: boolean }, ms: number): void {
    this.running--;
    state.running = false;
    state.held--;
    if (state.held === 0) this.owners.delete(owner);
    const at = this.now();
    this.used.set(owner, { ms: this.usedMs(owner, at) + ms, at });
    // Forget owners whose use has faded (under a millisecond), so the map holds only recent ones.
    for (const [key] of this.used) if (this.usedMs(key, at) < 1) this.used.delete(key);
    this.startNext();
  }

  private startNext(): void {
    const at = this.now();
    while (this.running < this.options.concurrency) {
      let best = -1;
      let bestUsed = 0;
      for (let i = 0; i < this.waiting.length; i++) {
        const job = this.waiting[i];
        if (this.owners.get(job.owner)?.running) continue;
        const used = this.usedMs(job.owner, at);
        if (best === -1 || used < bestUsed) {
          best = i;
          bestUsed = used;
        }
      }
      if (best === -1) return;
      const [job] = this.waiting.splice(best, 1);
      job.start();
    }
  }
}
