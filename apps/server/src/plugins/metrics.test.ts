import { randomUUID } from 'node:crypto';
import { packagesResponseSchema, startPaymentResponseSchema } from '@amora/contracts';
import { paymentOrders } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeCheckout } from '../modules/payments/sandbox/sandbox.service';
import { AMORA } from '../test/accounts';
import { callAs, createMember } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { metricValue } from '../test/metrics';

const TOKEN = 'metrics-token-for-the-tests';

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is off: 404, whatever the token sent', async () => {
    expect(t.ctx.config.metricsToken).toBeNull();
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await t.app.inject({ url: '/metrics', headers: { host: AMORA, ...(authorization ? { authorization } : {}) } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('amora_');
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    // Requests are counted from Node's HTTP server (its response-finish channel): this test listens.
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = (authorization?: string, host = AMORA) =>
    fetch(`${base}/metrics`, { headers: { host, ...(authorization ? { authorization } : {}) } });

  it('refuses a scrape without the bearer token, or with another one (401)', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-the-same-size', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer ']) {
      const res = await scrape(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain('amora_');
    }
  });

  it('answers the text exposition with the named metrics, on any host', async () => {
    const res = await scrape(`Bearer ${TOKEN}`, '10.0.0.7:3000');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    for (const name of [
      'amora_http_request_duration_seconds',
      'amora_job_queue_depth',
      'amora_job_oldest_due_age_seconds',
      'amora_live_connections',
      'amora_events_published_total',
      'amora_events_received_total',
      'amora_jobs_finished_total',
      'amora_mails_total',
      'amora_pushes_total',
      'amora_chat_sends_total',
      'amora_chat_batches_failed_total',
      'amora_payment_webhooks_total',
      'amora_db_info',
      'process_resident_memory_bytes',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    // Every job of the app has its queue's series, with zeros when empty.
    expect(text).toMatch(/^amora_job_queue_depth\{job="mail\.send",state="due"\} \d+$/m);
    expect(text).toMatch(/^amora_job_oldest_due_age_seconds\{job="accounts\.purge"\} [\d.]+$/m);
    expect(text).toContain('amora_live_connections{channel="member"} 0');
    expect(text).toContain('amora_live_connections{channel="console"} 0');
    expect(text).toContain(`amora_db_info{kind="${t.ctx.dbKind}"} 1`);
    if (t.ctx.dbKind === 'postgres') {
      // The harness opens PostgreSQL with 4 connections per pool.
      expect(text).toContain('amora_db_pool_connections{pool="main",state="max"} 4');
      expect(text).toContain('amora_db_pool_connections{pool="planned",state="max"} 4');
      expect(text).toMatch(/^amora_db_pool_waiting\{pool="main"\} \d+$/m);
    } else {
      // PGlite is one connection inside the process: no pool.
      expect(text).not.toContain('amora_db_pool_connections{');
    }
  });

  it('counts a request under its route pattern, never its address', async () => {
    const iconCount = (text: string) =>
      Number(
        /^amora_http_request_duration_seconds_count\{method="GET",route="\/api\/assets\/app-icon\/:name\.png",status="2xx"\} (\d+)$/m.exec(
          text,
        )?.[1] ?? 0,
      );
    const before = iconCount(await (await scrape(`Bearer ${TOKEN}`)).text());
    const icon = await fetch(`${base}/api/assets/app-icon/maskable-512.png`, { headers: { host: AMORA } });
    expect(icon.status).toBe(200);
    await icon.arrayBuffer();
    const missing = await fetch(`${base}/api/no-such-call-8f3a.php`, { headers: { host: AMORA } });
    expect(missing.status).toBe(404);
    await missing.text();
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(iconCount(text)).toBe(before + 1);
    expect(text).toMatch(/^amora_http_request_duration_seconds_count\{method="GET",route="\(not found\)",status="4xx"\} \d+$/m);
    expect(text).not.toContain('maskable-512');
    expect(text).not.toContain('8f3a');
  });

  it('counts the payment webhook by outcome', async () => {
    const webhook = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { host: AMORA, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `id=${id}`,
      });
    expect((await webhook('tr_unknown1234')).statusCode).toBe(404);
    expect(await metricValue(t.ctx.metrics, 'amora_payment_webhooks_total', { outcome: 'unknown_order' })).toBe(1);

    const sam = await createMember(t);
    const packages = packagesResponseSchema.parse((await callAs(t, sam, 'GET', '/api/packages.php')).json()).packages;
    const started = await callAs(t, sam, 'POST', '/api/payments.php', {
      package: packages[0].id,
      method: 'visa',
      request_id: randomUUID(),
    });
    expect(started.statusCode, started.body).toBe(201);
    const { order } = startPaymentResponseSchema.parse(started.json());
    const [row] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    await completeCheckout(t.app, row.providerPaymentId as string, { status: 'paid' });
    expect((await webhook(row.providerPaymentId as string)).statusCode).toBe(200);
    expect(await metricValue(t.ctx.metrics, 'amora_payment_webhooks_total', { outcome: 'processed' })).toBe(1);
  });
});
