import type { FastifyInstance } from 'fastify';

/** Whether this process is stopping: from the first signal on, /health/ready answers 503 (modules/health). */
export interface Lifecycle {
  stopping: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** SHUTDOWN_DRAIN_MS when unset: one second of 503 on /health/ready before the server stops accepting. */
export const DEFAULT_DRAIN_MS = 1_000;
/** How long running requests and jobs get once the server stops accepting; then sockets are cut and leases released. */
export const DEFAULT_GRACE_MS = 8_000;

/** SHUTDOWN_DRAIN_MS: milliseconds, 0 for none, at most 10 minutes. */
export function drainMsOf(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_DRAIN_MS;
  const ms = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(ms) || ms > 600_000) throw new Error(`SHUTDOWN_DRAIN_MS must be milliseconds (0 to 600000), got "${value}"`);
  return ms;
}

export interface GracefulStopOptions {
  /** How long /health/ready answers 503 while the process still serves, so the load balancer drains it first. */
  drainMs: number;
  /** How long running requests and jobs get once the server stops accepting. */
  graceMs: number;
  /** The job worker: stops claiming at once; a job still running after the grace has its lease released. */
  jobs: { stop(options?: { releaseAfterMs?: number }): Promise<void> };
  /** Closes the rest (bootstrap's runtime: mail, events, Redis, the database), after the server and the jobs. */
  closeRuntime: () => Promise<void>;
}

export interface GracefulStop {
  /** Runs the stop once; a second call while it runs cuts the drain short (Ctrl-C twice) and answers the same promise. */
  stop(reason: string): Promise<void>;
}

/**
 * The graceful stop (docs/operations.md, "Rolling restart"): readiness 503 at once and the job worker stops
 * claiming; after `drainMs` the requests under way finish, then the server stops accepting connections (the live
 * sockets close with 1001 and the console's streams end, so their clients reconnect to another process); past
 * `graceMs` the connections left are cut and the leases of jobs still running released; then the database and
 * Redis close. Made before the server listens: it counts the requests under way from the first.
 */
export function createGracefulStop(app: FastifyInstance, options: GracefulStopOptions): GracefulStop {
  let stopping: Promise<void> | null = null;
  let endDrain = () => {};
  // Requests under way: every request but the console's event streams (they end when the server closes; the live
  // sockets are upgrades, not requests).
  let inFlight = 0;
  let idle = () => {};
  app.server.on('request', (request, response) => {
    if (request.headers.accept?.includes('text/event-stream')) return;
    inFlight++;
    response.once('close', () => {
      if (--inFlight === 0) idle();
    });
  });

  /** Until no request is under way, or `deadline`. */
  async function requestsDone(deadline: number): Promise<void> {
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    idle = () => {};
  }

  async function run(reason: string): Promise<void> {
    app.lifecycle.stopping = true;
    app.log.info({ signal: reason, drainMs: options.drainMs }, 'stopping: not ready, draining');
    const jobsStopped = options.jobs.stop({ releaseAfterMs: options.drainMs + options.graceMs });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.drainMs);
      endDrain = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    // The requests under way finish while the process still works in full (the payment sandbox answers its own
    // process in it, which a closing app refuses); then the server stops accepting and closes its connections.
    const deadline = Date.now() + options.graceMs;
    await requestsDone(deadline);
    const cut = setTimeout(
      () => {
        app.log.warn('requests still running after the grace time: their connections are closed');
        app.server.closeAllConnections();
      },
      Math.max(500, deadline - Date.now()),
    );
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
    }
    await jobsStopped;
    await options.closeRuntime();
    app.log.info('stopped');
  }

  return {
    stop(reason) {
      if (stopping) {
        endDrain();
        return stopping;
      }
      stopping = run(reason);
      return stopping;
    },
  };
}
