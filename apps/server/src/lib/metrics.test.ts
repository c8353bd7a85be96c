import { randomBytes } from 'node:crypto';
import type { AppEvent } from '@amora/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryLog, recordEvents } from '../test/events';
import { createTestApp, type TestApp } from '../test/harness';
import { metricValue } from '../test/metrics';
import { createEventBus } from './events';
import { createJobs, defineJobs } from './jobs';
import { createMetrics, type JobQueue } from './metrics';

const like = (likerProfileId: number): AppEvent => ({
  type: 'like.created',
  siteId: 1,
  likerProfileId,
  likedProfileId: 2,
  source: 'profile',
});

describe('the request histogram', () => {
  it('counts each request under its method, route pattern and status class, its time in seconds', async () => {
    const metrics = createMetrics();
    metrics.request('GET', '/api/members/:id', 200, 12);
    metrics.request('GET', '/api/members/:id', 204, 30);
    metrics.request('GET', '/api/members/:id', 503, 2);
    metrics.request('POST', '/api/like.php', 429, 1);
    const text = (await metrics.scrape()).body;
    expect(text).toContain('amora_http_request_duration_seconds_count{method="GET",route="/api/members/:id",status="2xx"} 2');
    expect(text).toMatch(
      /^amora_http_request_duration_seconds_sum\{method="GET",route="\/api\/members\/:id",status="2xx"\} 0\.04(2|19999)/m,
    );
    expect(text).toContain('amora_http_request_duration_seconds_bucket{method="GET",route="/api/members/:id",status="2xx",le="0.01"} 0');
    expect(text).toContain('amora_http_request_duration_seconds_bucket{method="GET",route="/api/members/:id",status="2xx",le="0.025"} 1');
    expect(text).toContain('amora_http_request_duration_seconds_bucket{method="GET",route="/api/members/:id",status="2xx",le="0.05"} 2');
    expect(text).toContain('amora_http_request_duration_seconds_bucket{method="GET",route="/api/members/:id",status="2xx",le="+Inf"} 2');
    expect(text).toContain('amora_http_request_duration_seconds_count{method="GET",route="/api/members/:id",status="5xx"} 1');
    expect(text).toContain('amora_http_request_duration_seconds_count{method="POST",route="/api/like.php",status="4xx"} 1');
    // A status class with no request has no series.
    expect(text).not.toContain('status="3xx"');
    expect(text).toContain('# TYPE amora_http_request_duration_seconds histogram');
  });

  it('writes a label value with a quote, a backslash or a line break escaped', async () => {
    const metrics = createMetrics();
    metrics.request('GET', '(page) a"b\\c\nd', 200, 1);
    expect((await metrics.scrape()).body).toContain('route="(page) a\\"b\\\\c\\nd"');
  });
});

describe('the scrape', () => {
  const sources = (jobQueues: () => Promise<JobQueue[]>) => ({
    jobQueues,
    liveConnections: () => ({ member: 3, console: 1 }),
    databasePools: () => [{ pool: 'main', max: 10, total: 4, idle: 1, waiting: 2 }],
    databaseKind: 'postgres' as const,
  });

  it('reads the job queue, the sockets and the pools at each scrape, and adds the process metrics', async () => {
    const metrics = createMetrics();
    let due = 5;
    metrics.expose(sources(async () => [{ name: 'mail.send', due, later: 2, running: 1, dead: 0, oldestDueSeconds: 42.5 }]));
    let text = (await metrics.scrape()).body;
    expect(text).toContain('amora_job_queue_depth{job="mail.send",state="due"} 5');
    expect(text).toContain('amora_job_queue_depth{job="mail.send",state="later"} 2');
    expect(text).toContain('amora_job_queue_depth{job="mail.send",state="running"} 1');
    expect(text).toContain('amora_job_queue_depth{job="mail.send",state="dead"} 0');
    expect(text).toContain('amora_job_oldest_due_age_seconds{job="mail.send"} 42.5');
    expect(text).toContain('amora_job_queue_read_failed 0');
    expect(text).toContain('amora_live_connections{channel="member"} 3');
    expect(text).toContain('amora_live_connections{channel="console"} 1');
    expect(text).toContain('amora_db_pool_connections{pool="main",state="open"} 4');
    expect(text).toContain('amora_db_pool_connections{pool="main",state="idle"} 1');
    expect(text).toContain('amora_db_pool_connections{pool="main",state="max"} 10');
    expect(text).toContain('amora_db_pool_waiting{pool="main"} 2');
    expect(text).toContain('amora_db_info{kind="postgres"} 1');
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    // Garbage collection is left out: observing every collection costs a busy process throughput.
    expect(text).not.toContain('nodejs_gc_duration_seconds');
    due = 0;
    text = (await metrics.scrape()).body;
    expect(text).toContain('amora_job_queue_depth{job="mail.send",state="due"} 0');
  });

  it('still answers when the job queue cannot be read, saying so', async () => {
    const metrics = createMetrics();
    metrics.expose(
      sources(async () => {
        throw new Error('connection refused');
      }),
    );
    const text = (await metrics.scrape()).body;
    expect(text).toContain('amora_job_queue_read_failed 1');
    expect(text).not.toContain('amora_job_queue_depth{');
    expect(text).toContain('amora_live_connections{channel="member"} 3');
  });

  it('leaves the state gauges empty until the app exposes its sources', async () => {
    const text = (await createMetrics().scrape()).body;
    expect(text).toContain('# TYPE amora_job_queue_depth gauge');
    expect(text).not.toContain('amora_job_queue_depth{');
    expect(text).not.toContain('process_cpu_user_seconds_total');
  });
});

describe('the event bus hook', () => {
  it('counts events published by type, and listeners that threw', async () => {
    const metrics = createMetrics();
    const bus = createEventBus({ log: memoryLog(), metrics });
    bus.subscribe('like.created', () => {
      throw new Error('boom');
    });
    bus.publish(like(1));
    bus.publish(like(2));
    bus.publish({ type: 'profile.changed', siteId: 1, profileId: 3, fields: ['name'] });
    await bus.idle();
    expect(await metricValue(metrics, 'amora_events_published_total', { type: 'like.created' })).toBe(2);
    expect(await metricValue(metrics, 'amora_events_published_total', { type: 'profile.changed' })).toBe(1);
    expect(await metricValue(metrics, 'amora_event_listener_failures_total', { type: 'like.created' })).toBe(2);
    // What the schema refuses is not published, so not counted.
    bus.publish({ type: 'like.created', siteId: 1 } as AppEvent);
    expect(await metricValue(metrics, 'amora_events_published_total')).toBe(3);
    await bus.close();
  });

  const redisUrl = process.env.AMORA_TEST_DB === 'postgres' ? process.env.TEST_REDIS_URL : undefined;
  it.skipIf(!redisUrl)("counts other processes' events received over Redis, and payloads dropped", async () => {
    const channel = `amora:test:${randomBytes(4).toString('hex')}:events`;
    const redisA = new Redis(redisUrl as string, { maxRetriesPerRequest: 2 });
    const redisB = new Redis(redisUrl as string, { maxRetriesPerRequest: 2 });
    const [metricsA, metricsB] = [createMetrics(), createMetrics()];
    const a = createEventBus({ redis: redisA, channel, log: memoryLog(), metrics: metricsA });
    const b = createEventBus({ redis: redisB, channel, log: memoryLog(), metrics: metricsB });
    try {
      await Promise.all([a.ready(), b.ready()]);
      const atB = recordEvents(b, 'like.created');
      await redisA.publish(channel, 'not json');
      a.publish(like(9));
      await atB.next((event) => event.likerProfileId === 9);
      expect(await metricValue(metricsA, 'amora_events_published_total', { type: 'like.created' })).toBe(1);
      expect(await metricValue(metricsB, 'amora_events_received_total', { type: 'like.created' })).toBe(1);
      expect(await metricValue(metricsB, 'amora_events_dropped_total')).toBe(1);
      // Its own event coming back over Redis is not "received".
      expect(await metricValue(metricsA, 'amora_events_received_total')).toBe(0);
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});

describe('the job worker hook and the queue read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts attempts by job name and outcome, and reads each name’s queue by the jobs’ clock', async () => {
    const metrics = createMetrics();
    const specs = defineJobs({
      'metrics-test.ok': { payload: z.object({}) },
      'metrics-test.flaky': { payload: z.object({}), maxAttempts: 2, backoffMs: () => 60_000 },
      'metrics-test.idle': { payload: z.object({}) },
    });
    const jobs = createJobs({ db: t.ctx.db, specs, now: t.clock.now, metrics });
    jobs.handle('metrics-test.ok', async () => {});
    jobs.handle('metrics-test.flaky', async () => {
      throw new Error('not now');
    });
    jobs.handle('metrics-test.idle', async () => {});
    const start = new Date('2031-03-01T10:00:00Z');
    t.clock.set(start);
    await jobs.enqueue(t.ctx.db, 'metrics-test.ok', {});
    await jobs.enqueue(t.ctx.db, 'metrics-test.ok', {}, { runAt: new Date(start.getTime() + 3_600_000) });
    await jobs.enqueue(t.ctx.db, 'metrics-test.flaky', {});
    t.clock.advance(90_000);
    const queueOf = async (name: string) => (await jobs.queues()).find((queue) => queue.name === name);
    expect(await queueOf('metrics-test.ok')).toEqual({
      name: 'metrics-test.ok',
      due: 1,
      later: 1,
      running: 0,
      dead: 0,
      oldestDueSeconds: 90,
    });
    // A name with no job at all is there with zeros, so an alert on it has a series.
    expect(await queueOf('metrics-test.idle')).toEqual({
      name: 'metrics-test.idle',
      due: 0,
      later: 0,
      running: 0,
      dead: 0,
      oldestDueSeconds: 0,
    });

    await jobs.runDue();
    expect(await metricValue(metrics, 'amora_jobs_finished_total', { job: 'metrics-test.ok', outcome: 'done' })).toBe(1);
    expect(await metricValue(metrics, 'amora_jobs_finished_total', { job: 'metrics-test.flaky', outcome: 'retry' })).toBe(1);
    t.clock.advance(60_000);
    await jobs.runDue();
    expect(await metricValue(metrics, 'amora_jobs_finished_total', { job: 'metrics-test.flaky', outcome: 'dead' })).toBe(1);
    expect(await queueOf('metrics-test.flaky')).toMatchObject({ due: 0, dead: 1 });
    await jobs.stop();
  });
});
