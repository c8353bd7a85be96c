import { describe, expect, it } from 'vitest';
import { createBatches } from './batches';

interface Item {
  n: number;
  key: string;
  resolve: (value: number) => void;
  reject: (error: unknown) => void;
}

/** Batches whose runs wait until the test lets them go; what each run was given, in order. */
function harness(options: { limit: number; atOnce: number; keyed?: boolean }) {
  const runs: number[][] = [];
  const releases: (() => void)[] = [];
  const batches = createBatches<Item>({
    limit: options.limit,
    atOnce: options.atOnce,
    keyOf: options.keyed ? (item) => item.key : undefined,
    run: async (batch) => {
      runs.push(batch.map((item) => item.n));
      await new Promise<void>((release) => releases.push(release));
      for (const item of batch) item.resolve(item.n * 10);
    },
  });
  const add = (n: number, key = String(n)) =>
    new Promise<number>((resolve, reject) => {
      batches.add({ n, key, resolve, reject });
    });
  const releaseNext = async () => {
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { runs, add, releaseNext };
}

describe('batches (group commits)', () => {
  it('serves an item alone at once, and what waits meanwhile in the next batch, in order', async () => {
    const h = harness({ limit: 10, atOnce: 1 });
    const first = h.add(1);
    expect(h.runs).toEqual([[1]]);
    const rest = [h.add(2), h.add(3), h.add(4)];
    expect(h.runs).toEqual([[1]]);
    await h.releaseNext();
    expect(await first).toBe(10);
    expect(h.runs).toEqual([[1], [2, 3, 4]]);
    await h.releaseNext();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('takes at most `limit` items a batch and runs at most `atOnce` batches together', async () => {
    const h = harness({ limit: 2, atOnce: 2 });
    const all = [1, 2, 3, 4, 5, 6].map((n) => h.add(n));
    // 1 and 2 went alone, one batch each; the rest waits for them.
    expect(h.runs).toEqual([[1], [2]]);
    await h.releaseNext();
    expect(h.runs).toEqual([[1], [2], [3, 4]]);
    await h.releaseNext();
    expect(h.runs).toEqual([[1], [2], [3, 4], [5, 6]]);
    await h.releaseNext();
    await h.releaseNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('puts one item of a key in a batch, and none while a batch with that key is under way', async () => {
    const h = harness({ limit: 10, atOnce: 2, keyed: true });
    const all = [h.add(1, 'a'), h.add(2, 'a'), h.add(3, 'b'), h.add(4, 'a'), h.add(5, 'c')];
    // 1 (a) alone; then 3 (b) goes, 2 and 4 (a) wait for the batch of 1.
    expect(h.runs).toEqual([[1], [3]]);
    await h.releaseNext();
    expect(h.runs).toEqual([[1], [3], [2, 5]]);
    await h.releaseNext();
    expect(h.runs).toEqual([[1], [3], [2, 5]]);
    await h.releaseNext();
    expect(h.runs).toEqual([[1], [3], [2, 5], [4]]);
    await h.releaseNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
  });

  it('rejects every item of a batch whose run throws, and goes on with the next', async () => {
    let calls = 0;
    const batches = createBatches<Item>({
      limit: 10,
      atOnce: 1,
      run: async (batch) => {
        calls++;
        if (batch.some((item) => item.n === 2)) throw new Error('the database is gone');
        for (const item of batch) item.resolve(item.n);
      },
    });
    const add = (n: number) => new Promise<number>((resolve, reject) => batches.add({ n, key: '', resolve, reject }));
    const [one, two, three] = [add(1), add(2), add(3)];
    expect(await one).toBe(1);
    await expect(two).rejects.toThrow('the database is gone');
    await expect(three).rejects.toThrow('the database is gone');
    expect(await add(4)).toBe(4);
    expect(calls).toBe(3);
  });
});
