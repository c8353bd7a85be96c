import type { AppEventOf, AppEventType } from '@amora/contracts';
import type { EventBus, EventLog } from '../lib/events';

export interface RecordedEvents<T extends AppEventType> {
  /** Every event of the type received so far, in order. */
  seen: AppEventOf<T>[];
  /** The first event received (already or within `ms`) for which `match` holds. */
  next(match?: (event: AppEventOf<T>) => boolean, ms?: number): Promise<AppEventOf<T>>;
  stop(): void;
}

/** Subscribes to one type of event on `bus` and keeps what arrives, for a test to look at. */
export function recordEvents<T extends AppEventType>(bus: EventBus, type: T): RecordedEvents<T> {
  const seen: AppEventOf<T>[] = [];
  const waiters = new Set<{ match: (event: AppEventOf<T>) => boolean; resolve: (event: AppEventOf<T>) => void }>();
  const stop = bus.subscribe(type, (event) => {
    seen.push(event);
    for (const waiter of waiters) {
      if (!waiter.match(event)) continue;
      waiters.delete(waiter);
      waiter.resolve(event);
    }
  });
  return {
    seen,
    next(match = () => true, ms = 5_000) {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (event: AppEventOf<T>) => {
            clearTimeout(timer);
            resolve(event);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching ${type} event within ${ms} ms`));
        }, ms);
        waiters.add(waiter);
      });
    },
    stop,
  };
}

/** A log that keeps its lines, to check what the bus reported. */
export function memoryLog(): EventLog & { lines: { level: 'warn' | 'error'; message: string; details: object }[] } {
  const lines: { level: 'warn' | 'error'; message: string; details: object }[] = [];
  return {
    lines,
    warn: (details, message) => lines.push({ level: 'warn', message, details }),
    error: (details, message) => lines.push({ level: 'error', message, details }),
  };
}
