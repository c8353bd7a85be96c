import { randomUUID } from 'node:crypto';
import { type AppEvent, type AppEventOf, type AppEventType, appEventSchema } from '@amora/contracts';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Metrics } from './metrics';
import { afterCommit } from './transaction';

type EventHandler<T extends AppEventType> = (event: AppEventOf<T>) => void | Promise<void>;

/** What the bus writes to the log (pino's shape). */
export interface EventLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * The app's events (packages/contracts/src/events.ts), raised after a change is committed. In one process the
 * handlers are called there; with Redis every process's handlers get every event, each exactly once.
 */
export interface EventBus {
  /**
   * Hands the event to every handler of its type, here and in every other process; returns at once. A handler
   * runs later, on its own: what it throws is logged, never seen by the publisher. Call it once the change is
   * stored; inside a unit of work (withTransaction, also one a caller opened) the event waits for its commit
   * and is dropped when it rolls back.
   */
  publish(event: AppEvent): void;
  /** Calls `handler` with every event of `type`; the function returned stops that. */
  subscribe<T extends AppEventType>(type: T, handler: EventHandler<T>): () => void;
  /**
   * Calls `handler` when this process may have missed other processes' events: its Redis connection was lost
   * and is back (pub/sub keeps nothing for a subscriber that is away). It runs once the subscription is in place
   * again, so every event after it arrives. A cache refreshes itself then.
   */
  onMissed(handler: () => void): () => void;
  /** Resolves once other processes' events reach this one (at once without Redis). */
  ready(): Promise<void>;
  /** Resolves when the handlers of every event published or received so far have returned. */
  idle(): Promise<void>;
  /** Stops receiving, sends what is still being sent, and waits (a few seconds at most) for running handlers. */
  close(): Promise<void>;
}

export interface EventBusOptions {
  log: EventLog;
  /** The connection events are published on; the bus opens a second one of its own to receive them. */
  redis?: Redis | null;
  /** The Redis channel: every process of one installation uses the same one. */
  channel?: string;
  /** Counts events published, received from other processes, dropped, and listeners that threw (lib/metrics.ts). */
  metrics?: Pick<Metrics, 'eventPublished' | 'eventReceived' | 'eventDropped' | 'eventListenerFailed'>;
}

const DEFAULT_EVENT_CHANNEL = 'amora:events';
const CLOSE_WAIT_MS = 5_000;
/** How long closing waits for the subscriber's QUIT before cutting its connection. */
const QUIT_WAIT_MS = 1_000;

/** What travels over Redis: the event and the bus it came from, so that bus can leave out its own events. */
const envelopeSchema = z.object({ origin: z.string().min(1).max(64), event: appEventSchema });

/** The in-process bus, or with `redis` the same over Redis pub/sub. */
export function createEventBus(options: EventBusOptions): EventBus {
  return new Bus(options);
}

class Bus implements EventBus {
  private readonly handlers = new Map<AppEventType, Set<(event: AppEvent) => void | Promise<void>>>();
  private readonly missedHandlers = new Set<() => void>();
  private readonly log: EventLog;
  private readonly redis: Redis | null;
  private readonly channel: string;
  private readonly metrics: EventBusOptions['metrics'];
  /** This bus's name on the channel. */
  private readonly origin = randomUUID();
  private subscriber: Redis | null = null;
  private subscribed: Promise<void>;
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly sending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: EventBusOptions) {
    this.log = options.log;
    this.redis = options.redis ?? null;
    this.channel = options.channel ?? DEFAULT_EVENT_CHANNEL;
    this.metrics = options.metrics;
    this.subscribed = this.redis ? this.listen(this.redis) : Promise.resolve();
  }

  private listen(redis: Redis): Promise<void> {
    // Commands wait for the connection however long it is away: the subscription must outlive any outage. The
    // subscription is made again by the 'ready' handler below, not by ioredis (`autoResubscribe`), which sends
    // its SUBSCRIBE without a catch: a connection closed under it (a stop during a reconnection) left a rejection
    // nobody handled.
    const subscriber = redis.duplicate({
      maxRetriesPerRequest: null,
      lazyConnect: false,
      autoResubscribe: false,
      connectionName: `${this.channel}:subscriber`,
    });
    this.subscriber = subscriber;
    let connections = 0;
    // One line per outage, not one per reconnection attempt.
    let isDown = false;
    subscriber.on('ready', () => {
      connections++;
      isDown = false;
      if (connections === 1) return;
      // A new connection subscribes again here; what was published meanwhile is lost. The handlers run once Redis
      // has answered the SUBSCRIBE: whatever they fetch then, later events arrive here.
      subscriber.subscribe(this.channel).then(
        () => {
          for (const handler of this.missedHandlers) this.runMissed(handler);
        },
        // The connection failed again: its next 'ready' tries once more.
        () => {},
      );
    });
    subscriber.on('error', (err) => {
      if (this.closed || isDown) return;
      isDown = true;
      this.log.warn({ err }, 'events: the Redis subscriber connection failed; reconnecting');
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    const subscribed = subscriber.subscribe(this.channel).then(() => undefined);
    // ready() reports a failure; nobody else needs to see it.
    subscribed.catch(() => {});
    return subscribed;
  }

  private receive(message: string): void {
    let data: unknown;
    try {
      data = JSON.parse(message);
    } catch {
      this.log.warn({ channel: this.channel, length: message.length }, 'event dropped: not JSON');
      this.metrics?.eventDropped();
      return;
    }
    if (typeof data === 'object' && data !== null && (data as { origin?: unknown }).origin === this.origin) {
      return; // our own event, handed to this process's handlers when it was published
    }
    const parsed = envelopeSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.log.warn(
        { channel: this.channel, length: message.length, path: issue?.path.join('.'), issue: issue?.message },
        'event dropped: not a valid event',
      );
      this.metrics?.eventDropped();
      return;
    }
    this.metrics?.eventReceived(parsed.data.event.type);
    this.deliver(parsed.data.event);
  }

  publish(event: AppEvent): void {
    if (this.closed) {
      this.log.warn({ type: event.type }, 'event not published: the bus is closed');
      return;
    }
    // Only the schema's fields go out, whatever the caller's object held.
    const parsed = appEventSchema.safeParse(event);
    if (!parsed.success) {
      this.log.error({ type: event.type, issues: parsed.error.issues }, 'event not published: not a valid event');
      return;
    }
    afterCommit(() => this.send(parsed.data));
  }

  private send(event: AppEvent): void {
    this.metrics?.eventPublished(event.type);
    this.deliver(event);
    if (this.redis) {
      const sent = this.redis
        .publish(this.channel, JSON.stringify({ origin: this.origin, event }))
        .catch((err) => this.log.warn({ err, type: event.type }, 'event not sent to the other processes'));
      this.sending.add(sent);
      void sent.finally(() => this.sending.delete(sent));
    }
  }

  private deliver(event: AppEvent): void {
    const handlers = this.handlers.get(event.type);
    if (!handlers?.size) return;
    Object.freeze(event);
    for (const handler of handlers) {
      this.running++;
      setImmediate(() => {
        Promise.resolve()
          .then(() => handler(event))
          .catch((err) => {
            this.metrics?.eventListenerFailed(event.type);
            this.log.error({ err, type: event.type }, 'event handler failed');
          })
          .finally(() => this.handlerDone());
      });
    }
  }

  private handlerDone(): void {
    this.running--;
    if (this.running > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private runMissed(handler: () => void): void {
    try {
      handler();
    } catch (err) {
      this.log.error({ err }, 'missed-events handler failed');
    }
  }

  subscribe<T extends AppEventType>(type: T, handler: EventHandler<T>): () => void {
    let handlers = this.handlers.get(type);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(type, handlers);
    }
    // Every event in this set is of `type`.
    const registered = handler as (event: AppEvent) => void | Promise<void>;
    handlers.add(registered);
    return () => {
      handlers.delete(registered);
    };
  }

  onMissed(handler: () => void): () => void {
    this.missedHandlers.add(handler);
    return () => {
      this.missedHandlers.delete(handler);
    };
  }

  ready(): Promise<void> {
    return this.subscribed;
  }

  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { subscriber } = this;
    if (subscriber) {
      // QUIT is answered after what the connection has in flight (a SUBSCRIBE after a reconnection). A connection
      // that is down gets a moment, then is cut all the same.
      if (subscriber.status === 'ready') {
        let quitTimer: NodeJS.Timeout | undefined;
        await Promise.race([
          subscriber.quit().catch(() => {}),
          new Promise<void>((resolve) => {
            quitTimer = setTimeout(resolve, QUIT_WAIT_MS);
          }),
        ]);
        clearTimeout(quitTimer);
      }
      subscriber.disconnect();
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
    });
    await Promise.race([Promise.allSettled([...this.sending]).then(() => this.idle()), timeout]);
    clearTimeout(timer);
    this.handlers.clear();
    this.missedHandlers.clear();
  }
}

/**
 * Waits at most `ms` for the bus to receive other processes' events. A Redis that does not answer yet is
 * logged and waited for no longer: the subscription is made when it answers.
 */
export async function readyWithin(bus: EventBus, ms: number, log: EventLog): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    if ((await Promise.race([bus.ready(), late])) === 'late') {
      log.warn({ ms }, 'events: Redis has not answered yet; events of other processes arrive once it does');
    }
  } catch (err) {
    log.error({ err }, 'events: subscribing on Redis failed');
  } finally {
    clearTimeout(timer);
  }
}
