/**
 * A full garbage collection once the server has been quiet for a while after work. V8 collects when it needs
 * room, not when a server falls idle, so what the last requests left behind stays resident until the next
 * burst; collecting once, when nothing is asked of the server, hands those pages back (about 25 MB of an idle
 * server's 150). Needs Node's `--expose-gc` (SERVER_NODE_FLAGS); without it this does nothing.
 */
export interface IdleCollectorOptions {
  /** The collection: `globalThis.gc` when Node exposes it. */
  collect: (() => void) | undefined;
  /** How long without a request before collecting. */
  quietMs: number;
  /** How often to look. */
  checkEveryMs: number;
  now?: () => number;
}

export interface IdleCollector {
  /** A request came in: collect again once it has been quiet for `quietMs`. */
  touch(): void;
  stop(): void;
}

export function startIdleCollector({ collect, quietMs, checkEveryMs, now = Date.now }: IdleCollectorOptions): IdleCollector {
  if (!collect) return { touch() {}, stop() {} };
  let lastRequest = now();
  // Start-up itself is work worth collecting after.
  let workSinceCollection = true;
  const timer = setInterval(() => {
    if (!workSinceCollection || now() - lastRequest < quietMs) return;
    workSinceCollection = false;
    collect();
  }, checkEveryMs);
  timer.unref();
  return {
    touch() {
      lastRequest = now();
      workSinceCollection = true;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** Node's collector when the process was started with --expose-gc. */
export function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return undefined;
  // 'last-resort' is V8's collection that also compacts and hands free pages back, as when memory runs short;
  // a plain one frees the objects but keeps most pages.
  return () => (gc as (options: object) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
