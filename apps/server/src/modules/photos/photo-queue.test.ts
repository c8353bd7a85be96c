import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { QueueRefusedError, WorkQueue } from './photo-queue';

/** A job that runs until the test lets it finish, and tells when it started. */
function heldJob() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    work: () => {
      started = true;
      return done;
    },
    get started() {
      return started;
    },
    finish,
    fail,
  };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof QueueRefusedError ? error.reason : error),
  );
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkQueue', () => {
  it('runs a job that waited in the async context of its own caller, not of the job whose end started it', async () => {
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 3, perOwner: 5 });
    const request = new AsyncLocalStorage<string>();
    const first = heldJob();
    const running = request.run('first request', () => queue.run('member-a', first.work));
    let seen: string | undefined = 'not run';
    const waiting = request.run('second request', () =>
      queue.run('member-b', async () => {
        seen = request.getStore();
      }),
    );
    await settle();
    request.run('first request', () => first.finish('done'));
    await Promise.all([running, waiting]);
    expect(seen).toBe('second request');
  });

  it('runs at most `concurrency` jobs, queues up to `maxWaiting`, and refuses the next one at once', async () => {
    const queue = new WorkQueue({ concurrency: 2, maxWaiting: 3, perOwner: 5 });
    const jobs = Array.from({ length: 5 }, () => heldJob());
    const runs = jobs.map((job, i) => queue.run(`member-${i}`, job.work));
    await settle();
    expect(jobs.map((j) => j.started)).toEqual([true, true, false, false, false]);
    expect(queue.size).toEqual({ running: 2, waiting: 3 });
    expect(queue.isFull).toBe(true);

    // The sixth is refused without waiting for anything to finish.
    expect(await refusal(queue.run('member-5', async () => 'never'))).toBe('full');
    expect(queue.size).toEqual({ running: 2, waiting: 3 });

    jobs[0].finish('a');
    expect(await runs[0]).toBe('a');
    await settle();
    expect(jobs.map((j) => j.started)).toEqual([true, true, true, false, false]);
    expect(queue.isFull).toBe(false);
    // One place is free again: the next one waits instead of being refused.
    const queued = queue.run('member-6', async () => 'queued');
    expect(queue.size).toEqual({ running: 2, waiting: 3 });

    for (const job of jobs.slice(1)) job.finish('x');
    expect(await queued).toBe('queued');
    await Promise.all(runs);
    await settle();
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run('member-7', async () => 'ok')).toBe('ok');
  });

  it('runs one job of an owner at a time and refuses past `perOwner`', async () => {
    const queue = new WorkQueue({ concurrency: 4, maxWaiting: 10, perOwner: 3 });
    const jobs = Array.from({ length: 3 }, () => heldJob());
    const runs = jobs.map((job) => queue.run('member', job.work));
    await settle();
    expect(jobs.map((j) => j.started)).toEqual([true, false, false]);
    expect(await refusal(queue.run('member', async () => 'never'))).toBe('owner');
    // Someone else is not held up by it.
    expect(await queue.run('other', async () => 'other')).toBe('other');

    jobs[0].finish('1');
    await settle();
    expect(jobs.map((j) => j.started)).toEqual([true, true, false]);
    // A place of this owner is free again.
    const fourth = queue.run('member', async () => '4');
    jobs[1].finish('2');
    jobs[2].finish('3');
    expect(await Promise.all([...runs, fourth])).toEqual(['1', '2', '3', '4']);
  });

  it('gives a free slot to a member with one job before the second job of another', async () => {
    let clock = 0;
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 10, perOwner: 3, now: () => clock });
    const order: string[] = [];
    const first = heldJob();
    const running = queue.run('busy', first.work);
    const later = [
      queue.run('busy', async () => order.push('busy 2')),
      queue.run('busy', async () => order.push('busy 3')),
      queue.run('calm', async () => order.push('calm 1')),
    ];
    clock += 1_000;
    first.finish('busy 1');
    await Promise.all([running, ...later]);
    expect(order).toEqual(['calm 1', 'busy 2', 'busy 3']);
  });

  it('puts members who keep the queue busy one photo at a time behind one who has not used it lately', async () => {
    let clock = 0;
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 10, perOwner: 3, halfLifeMs: 60_000, now: () => clock });
    // Two members have just had a photo processed each (4 s and 3 s).
    for (const [owner, ms] of [
      ['hostile-a', 4_000],
      ['hostile-b', 3_000],
    ] as const) {
      const job = heldJob();
      const run = queue.run(owner, job.work);
      await settle();
      clock += ms;
      job.finish(owner);
      await run;
      await settle();
    }
    // A's 4 s, 3 s ago; B's 3 s, just now.
    expect(queue.usedMs('hostile-a')).toBeCloseTo(4_000 * 0.5 ** (3_000 / 60_000), 6);
    expect(queue.usedMs('hostile-b')).toBe(3_000);
    expect(queue.usedMs('honest')).toBe(0);

    // A's next photo runs; B's and then the honest member's wait. The honest one goes first although it came last.
    const order: string[] = [];
    const a = heldJob();
    const runs = [
      queue.run('hostile-a', a.work),
      queue.run('hostile-b', async () => order.push('hostile-b')),
      queue.run('honest', async () => order.push('honest')),
    ];
    await settle();
    clock += 4_000;
    a.finish('a');
    await Promise.all(runs);
    expect(order).toEqual(['honest', 'hostile-b']);

    // Use fades: after one half-life half of it is left, and it is forgotten once under a millisecond.
    clock += 60_000;
    expect(queue.usedMs('hostile-a')).toBeCloseTo((4_000 * 0.5 ** (7_000 / 60_000) + 4_000) / 2, 6);
    clock += 60_000 * 20;
    await queue.run('someone', async () => 'x');
    await settle();
    expect(queue.usedMs('hostile-a')).toBe(0);
  });

  it('frees the slot of a job that fails, also when it throws before its first await', async () => {
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 0, perOwner: 1 });
    await expect(
      queue.run('member', () => {
        throw new Error('broken file');
      }),
    ).rejects.toThrow('broken file');
    const failing = heldJob();
    const run = queue.run('member', failing.work);
    await settle();
    expect(await refusal(queue.run('other', async () => 'x'))).toBe('full');
    failing.fail(new Error('timeout'));
    await expect(run).rejects.toThrow('timeout');
    await settle();
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run('member', async () => 'again')).toBe('again');
  });
});
