import { createRequire } from 'node:module';
import { Counter, Gauge, Registry } from 'prom-client';

/**
 * This process's Prometheus metrics (prom-client): one registry per app context, counted through small hooks at
 * the seams (the event bus, the job worker, the mailer, push delivery, the payment webhook; the HTTP requests from
 * plugins/metrics.ts) and read at each scrape for what is a state rather than a count (job queue, sockets,
 * database pool). Every process exposes its own at `/metrics` (plugins/metrics.ts, only with METRICS_TOKEN):
 * Prometheus scrapes each process as a target of its own and sums across them. No label carries an id or any
 * other value without a bound: routes are patterns, job names and event types come from the code.
 */

export type MailOutcome = 'sent' | 'failed';
/** sent: the push service took it; gone: the subscription was dropped (404, 410); deferred: 429; failed: anything else. */
export type PushOutcome = 'sent' | 'gone' | 'deferred' | 'failed';
/** How a chat send was stored or answered: in a batch of sends, or on its own (docs/decisions.md, "sends stored together"). */
export type ChatSendPath = 'batched' | 'single';
/** processed: applied (or nothing to apply); unknown_order: answered 404 for the provider to retry; error: it threw (500). */
export type WebhookOutcome = 'processed' | 'unknown_order' | 'error';
/** done: the handler returned; retry: it threw and will run again; dead: out of attempts, or a payload its schema refuses. */
export type JobOutcome = 'done' | 'retry' | 'dead';

/** A job name's queue at one moment (jobs.repository's queueStats). */
export interface JobQueue {
  name: string;
  /** Queued and due: waiting for a worker. */
  due: number;
  /** Queued for later (a retry's backoff, a `runAt`). */
  later: number;
  running: number;
  dead: number;
  /** How long the oldest due job has waited past its due time, in seconds (0 when none waits). */
  oldestDueSeconds: number;
}

/** One database pool's use (@amora/db's poolUse): none on PGlite. */
interface PoolUse {
  pool: string;
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

/** What a scrape reads of the app's state (given by plugins/metrics.ts). */
export interface ScrapeSources {
  jobQueues(): Promise<JobQueue[]>;
  liveConnections(): { member: number; console: number };
  databasePools(): PoolUse[];
  databaseKind: 'pglite' | 'postgres';
}

/** HTTP request durations' buckets, in seconds: 5 ms to 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
const HTTP_METRIC = 'amora_http_request_duration_seconds';

/** One series of the request histogram: its labels as written out, requests per bucket (the last: +Inf), their sum. */
interface RequestSeries {
  labels: string;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * prom-client's default process metrics (CPU, memory, heap, handles, file descriptors, event loop delay, the Node
 * version), each its own module, all but `gc`: its observer of every garbage collection cost a busy read about 4 %
 * of its throughput, against nothing measurable for the others (docs/decisions.md, "Metrics and health").
 */
const PROCESS_METRICS = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  ...(typeof process.getActiveResourcesInfo === 'function' ? ['processResources'] : []),
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
];

function collectProcessMetrics(registry: Registry): void {
  const require = createRequire(import.meta.url);
  for (const name of PROCESS_METRICS) {
    const register = require(`prom-client/lib/metrics/${name}`) as (registry: Registry, config: object) => void;
    register(registry, { eventLoopMonitoringPrecision: 10 });
  }
}

/** A label value as the text exposition writes it. */
const labelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** A counter's children by their one label value, made once each (prom-client checks the labels on every `labels()`). */
function byLabel<L extends string>(counter: Counter<L>): (value: string) => Counter.Internal {
  const children = new Map<string, Counter.Internal>();
  return (value) => {
    let child = children.get(value);
    if (!child) {
      child = counter.labels(value);
      children.set(value, child);
    }
    return child;
  };
}

export class Metrics {
  readonly registry = new Registry();

  /**
   * The request histogram, kept here rather than in a prom-client Histogram: counting a request is then two map
   * looks and three additions (prom-client checks and hashes the labels at every observation, the biggest part of
   * the metrics' cost per request), and `scrape` writes it out in the same text format. Per method and route, a
   * series per status class, made at its first request.
   */
  private readonly requests = new Map<string, Map<string, (RequestSeries | undefined)[]>>();

  private readonly published = byLabel(
    new Counter({
      name: 'amora_events_published_total',
      help: 'Events this process published on the event bus, by type',
      labelNames: ['type'],
      registers: [this.registry],
    }),
  );
  private readonly received = byLabel(
    new Counter({
      name: 'amora_events_received_total',
      help: "Other processes' events this process received over Redis, by type",
      labelNames: ['type'],
      registers: [this.registry],
    }),
  );
  private readonly dropped = new Counter({
    name: 'amora_events_dropped_total',
    help: 'Payloads on the event channel that were not a valid event, dropped',
    registers: [this.registry],
  });
  private readonly listenerFailures = byLabel(
    new Counter({
      name: 'amora_event_listener_failures_total',
      help: 'Event listeners that threw, by event type',
      labelNames: ['type'],
      registers: [this.registry],
    }),
  );
  private readonly jobsFinished = new Counter({
    name: 'amora_jobs_finished_total',
    help: 'Job attempts this process finished, by job name and outcome (done, retry, dead)',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });
  private readonly mails = byLabel(
    new Counter({
      name: 'amora_mails_total',
      help: 'Mails handed to SMTP by this process, by outcome (sent, failed: retried by its job)',
      labelNames: ['outcome'],
      registers: [this.registry],
    }),
  );
  private readonly pushes = byLabel(
    new Counter({
      name: 'amora_pushes_total',
      help: 'Web pushes to one subscription, by outcome (sent, gone, deferred, failed)',
      labelNames: ['outcome'],
      registers: [this.registry],
    }),
  );
  private readonly chatSendsByPath = byLabel(
    new Counter({
      name: 'amora_chat_sends_total',
      help: 'Chat sends to a conversation this process stored or answered, by path (batched: in a batch of sends; single: on their own)',
      labelNames: ['path'],
      registers: [this.registry],
    }),
  );
  private readonly chatBatchesFailed = new Counter({
    name: 'amora_chat_batches_failed_total',
    help: 'Batches of chat sends that failed as a whole and wrote nothing (their sends went on their own)',
    registers: [this.registry],
  });
  private readonly webhooks = byLabel(
    new Counter({
      name: 'amora_payment_webhooks_total',
      help: "The payment provider's webhook calls, by outcome (processed, unknown_order, error)",
      labelNames: ['outcome'],
      registers: [this.registry],
    }),
  );

  private readonly jobQueueDepth = new Gauge({
    name: 'amora_job_queue_depth',
    help: 'Jobs in the database by job name and state (due: waiting for a worker; later; running; dead), across all processes',
    labelNames: ['job', 'state'],
    registers: [this.registry],
  });
  private readonly jobOldestDue = new Gauge({
    name: 'amora_job_oldest_due_age_seconds',
    help: 'How long the oldest due job of each name has waited past its due time (0: none waits), across all processes',
    labelNames: ['job'],
    registers: [this.registry],
  });
  private readonly jobQueueReadFailed = new Gauge({
    name: 'amora_job_queue_read_failed',
    help: '1 when this scrape could not read the job queue from the database (the job gauges are then left out)',
    registers: [this.registry],
  });
  private readonly liveConnections = new Gauge({
    name: 'amora_live_connections',
    help: "Live channel connections open on this process: members' WebSockets and the console's event streams",
    labelNames: ['channel'],
    registers: [this.registry],
  });
  private readonly poolConnections = new Gauge({
    name: 'amora_db_pool_connections',
    help: "This process's PostgreSQL connections by pool (main, planned) and state (open, idle, max); none on PGlite",
    labelNames: ['pool', 'state'],
    registers: [this.registry],
  });
  private readonly poolWaiting = new Gauge({
    name: 'amora_db_pool_waiting',
    help: 'Queries of this process waiting for a PostgreSQL connection, by pool; none on PGlite',
    labelNames: ['pool'],
    registers: [this.registry],
  });
  private readonly databaseInfo = new Gauge({
    name: 'amora_db_info',
    help: 'The database this process uses (kind: pglite, one connection inside the process; postgres, pools)',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  private sources: ScrapeSources | null = null;

  /**
   * Gives the scrape what it reads of the app's state, and adds Node's process metrics (CPU, memory, heap, event
   * loop delay: prom-client's defaults but garbage collection). Called by plugins/metrics.ts when /metrics is on.
   */
  expose(sources: ScrapeSources): void {
    if (!this.sources) collectProcessMetrics(this.registry);
    this.sources = sources;
  }

  /** Reads the app's state into the gauges, then answers the text exposition of every metric and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    const sources = this.sources;
    if (sources) {
      this.jobQueueDepth.reset();
      this.jobOldestDue.reset();
      try {
        for (const queue of await sources.jobQueues()) {
          this.jobQueueDepth.labels(queue.name, 'due').set(queue.due);
          this.jobQueueDepth.labels(queue.name, 'later').set(queue.later);
          this.jobQueueDepth.labels(queue.name, 'running').set(queue.running);
          this.jobQueueDepth.labels(queue.name, 'dead').set(queue.dead);
          this.jobOldestDue.labels(queue.name).set(queue.oldestDueSeconds);
        }
        this.jobQueueReadFailed.set(0);
      } catch {
        // The database does not answer: the other metrics still go out (and /health/ready says so).
        this.jobQueueReadFailed.set(1);
      }
      const live = sources.liveConnections();
      this.liveConnections.labels('member').set(live.member);
      this.liveConnections.labels('console').set(live.console);
      this.poolConnections.reset();
      this.poolWaiting.reset();
      for (const pool of sources.databasePools()) {
        this.poolConnections.labels(pool.pool, 'open').set(pool.total);
        this.poolConnections.labels(pool.pool, 'idle').set(pool.idle);
        this.poolConnections.labels(pool.pool, 'max').set(pool.max);
        this.poolWaiting.labels(pool.pool).set(pool.waiting);
      }
      this.databaseInfo.reset();
      this.databaseInfo.labels(sources.databaseKind).set(1);
    }
    return { body: `${this.requestsText()}\n${await this.registry.metrics()}`, contentType: this.registry.contentType };
  }

  /** The request histogram in the text exposition format (cumulative buckets, then the sum and the count). */
  private requestsText(): string {
    const lines = [
      `# HELP ${HTTP_METRIC} HTTP requests answered, by method, route pattern and status class: the count is the request rate, the buckets the latency`,
      `# TYPE ${HTTP_METRIC} histogram`,
    ];
    for (const routes of this.requests.values()) {
      for (const byStatus of routes.values()) {
        for (const series of byStatus) {
          if (!series) continue;
          let cumulative = 0;
          HTTP_BUCKETS.forEach((bound, i) => {
            cumulative += series.buckets[i];
            lines.push(`${HTTP_METRIC}_bucket{${series.labels},le="${bound}"} ${cumulative}`);
          });
          lines.push(`${HTTP_METRIC}_bucket{${series.labels},le="+Inf"} ${series.count}`);
          lines.push(`${HTTP_METRIC}_sum{${series.labels}} ${series.sum}`);
          lines.push(`${HTTP_METRIC}_count{${series.labels}} ${series.count}`);
        }
      }
    }
    return `${lines.join('\n')}\n`;
  }

  /** A request answered: its method, route pattern (never the raw URL), status and time in milliseconds. */
  request(method: string, route: string, status: number, ms: number): void {
    let routes = this.requests.get(method);
    if (!routes) {
      routes = new Map();
      this.requests.set(method, routes);
    }
    let byStatus = routes.get(route);
    if (!byStatus) {
      byStatus = STATUS_CLASSES.map(() => undefined);
      routes.set(route, byStatus);
    }
    const index = Math.min(Math.max(Math.floor(status / 100) - 1, 0), 4);
    let series = byStatus[index];
    if (!series) {
      series = {
        labels: `method="${labelValue(method)}",route="${labelValue(route)}",status="${STATUS_CLASSES[index]}"`,
        buckets: new Array(HTTP_BUCKETS.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byStatus[index] = series;
    }
    const seconds = ms / 1000;
    let bucket = 0;
    while (bucket < HTTP_BUCKETS.length && seconds > HTTP_BUCKETS[bucket]) bucket++;
    series.buckets[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  eventPublished(type: string): void {
    this.published(type).inc();
  }

  eventReceived(type: string): void {
    this.received(type).inc();
  }

  eventDropped(): void {
    this.dropped.inc();
  }

  eventListenerFailed(type: string): void {
    this.listenerFailures(type).inc();
  }

  jobFinished(name: string, outcome: JobOutcome): void {
    this.jobsFinished.labels(name, outcome).inc();
  }

  mail(outcome: MailOutcome): void {
    this.mails(outcome).inc();
  }

  push(outcome: PushOutcome): void {
    this.pushes(outcome).inc();
  }

  chatSends(path: ChatSendPath, count: number): void {
    if (count > 0) this.chatSendsByPath(path).inc(count);
  }

  chatBatchFailed(): void {
    this.chatBatchesFailed.inc();
  }

  paymentWebhook(outcome: WebhookOutcome): void {
    this.webhooks(outcome).inc();
  }
}

export function createMetrics(): Metrics {
  return new Metrics();
}
