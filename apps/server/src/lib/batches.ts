/**
 * Group commits, the one way (docs/ARCHITECTURE.md, "A request's path", step 3): what many requests ask of the database at the same
 * moment (the session behind each call, each chat send) waits while a batch is under way and goes in the next one,
 * whose statements serve all of it at once. Alone, an item goes at once, so a quiet process waits for nothing;
 * under load the statements (and the round trips to PostgreSQL, which cost more than the statements themselves)
 * an item costs fall with the size of its batch.
 */
export interface BatchesOptions<T extends Settled> {
  /** Serves one batch, in the order the items came, settling every item; should it throw, each item is rejected with it. */
  run: (batch: T[]) => Promise<void>;
  /** Items a batch takes at most (its statements grow with them). */
  limit: number;
  /** Batches under way at once: while one commits, the next is being read and written. */
  atOnce: number;
  /**
   * Items of the same key go one a batch, none while a batch with that key is under way, so those of a key are
   * served in the order they came (a conversation's sends).
   */
  keyOf?: (item: T) => number | string;
}

/** An item waiting for its batch: what it is rejected with when its batch throws (a settled item stays settled). */
export interface Settled {
  reject: (error: unknown) => void;
}

export interface Batches<T> {
  add(item: T): void;
}

export function createBatches<T extends Settled>(options: BatchesOptions<T>): Batches<T> {
  const { run, limit, atOnce, keyOf } = options;
  let waiting: T[] = [];
  let underWay = 0;
  /** The keys of the batches under way. */
  const busy = new Set<number | string>();

  /** The next batch: the oldest waiting items, one a key, none of a key under way. */
  const take = (): T[] => {
    if (!keyOf) {
      const batch = waiting.slice(0, limit);
      waiting = waiting.slice(limit);
      return batch;
    }
    const batch: T[] = [];
    const rest: T[] = [];
    const taken = new Set<number | string>();
    for (const item of waiting) {
      const key = keyOf(item);
      if (batch.length < limit && !taken.has(key) && !busy.has(key)) {
        taken.add(key);
        batch.push(item);
      } else {
        rest.push(item);
      }
    }
    waiting = rest;
    return batch;
  };

  const launch = (): void => {
    while (underWay < atOnce && waiting.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      underWay++;
      const keys = keyOf ? batch.map(keyOf) : [];
      for (const key of keys) busy.add(key);
      void run(batch)
        .catch((error: unknown) => {
          for (const item of batch) item.reject(error);
        })
        .finally(() => {
          underWay--;
          for (const key of keys) busy.delete(key);
          launch();
        });
    }
  };

  return {
    add(item) {
      waiting.push(item);
      launch();
    },
  };
}

/** Where a batch that failed as a whole and fell back to the single path is reported (pino's shape). */
export interface BatchFailureLog {
  warn(details: object, message: string): void;
}

let failures: BatchFailureLog = { warn: (details, message) => console.warn(message, details) };

/** Sends the reports of failed batches to `log` (the server's logger). */
export function logBatchFailuresTo(log: BatchFailureLog): void {
  failures = log;
}

/**
 * A batch of `what` failed as a whole and wrote nothing; its items went the single way. Logged as a warning: now and
 * then it is a deadlock PostgreSQL broke, and a steady stream of them a fault to look at.
 */
export function reportBatchFailure(what: string, size: number, error: unknown): void {
  failures.warn({ err: error, size }, `a batch of ${what} failed as a whole; its items went one by one`);
}
