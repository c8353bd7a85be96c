import type { Database } from '@amora/db';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { AppJobs } from './job-specs';
import type { EventBus } from './lib/events';
import type { Jobs } from './lib/jobs';
import type { Limiter } from './lib/limiter';
import type { Metrics } from './lib/metrics';
import type { Mailer } from './modules/mail/mail.service';
import type { PaymentProvider } from './modules/payments/provider/provider';
import type { Site, SiteDirectory } from './modules/sites/sites.service';

export interface AppContext {
  config: Config;
  db: Database;
  dbKind: 'pglite' | 'postgres';
  redis: Redis | null;
  limiter: Limiter;
  mailer: Mailer;
  /** Durable background jobs in the database (lib/jobs.ts): enqueued in a transaction, run once by any process. */
  jobs: Jobs<AppJobs>;
  /** Events raised after a commit (lib/events.ts): in this process, or over Redis to every process. */
  events: EventBus;
  sites: SiteDirectory;
  /** This process's Prometheus metrics (lib/metrics.ts), counted at the seams; served at /metrics with METRICS_TOKEN. */
  metrics: Metrics;
  /** The payment provider: Mollie, or the built-in sandbox speaking Mollie's API (modules/payments/provider). */
  payments: PaymentProvider;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    site: Site;
  }
}
