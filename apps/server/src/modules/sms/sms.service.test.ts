import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboxSms } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { JOBS } from '../../job-specs';
import { registerJobs } from '../../jobs';
import { createJobs } from '../../lib/jobs';
import { createTestApp, type TestApp } from '../../test/harness';
import type { SmsAdapter } from './sms.adapter';
import { createSmsAdapter, messageBirdAdapter, SmsProviderError, twilioAdapter } from './sms.adapter';
import { createSmsSender, SEND_SMS_JOB, smsOf, smsText } from './sms.service';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local stand-in for the SMS provider: records every request and answers what the test says. */
let recorder: Server;
let base: string;
const recorded: Recorded[] = [];
let answer: { status: number; body: string } = { status: 201, body: '{"id":"msg_1","sid":"SM1"}' };

beforeAll(async () => {
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      recorded.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => recorder.close(resolve));
});
afterEach(() => {
  recorded.length = 0;
  answer = { status: 201, body: '{"id":"msg_1","sid":"SM1"}' };
});

describe('the provider adapters', () => {
  it('sends MessageBird its JSON with the access key', async () => {
    const adapter = messageBirdAdapter({ apiKey: 'live_key', from: 'Amora', apiUrl: `${base}/messages` });
    expect(await adapter.send({ to: '+31612345678', text: '123456 is your code', reference: '7' })).toEqual({ providerId: 'msg_1' });
    expect(recorded).toHaveLength(1);
    expect(recorded[0].url).toBe('/messages');
    expect(recorded[0].headers.authorization).toBe('AccessKey live_key');
    expect(JSON.parse(recorded[0].body)).toEqual({
      originator: 'Amora',
      recipients: ['31612345678'],
      body: '123456 is your code',
      reference: '7',
    });
  });

  it('sends Twilio its form with basic auth', async () => {
    const adapter = twilioAdapter({ apiKey: 'AC123:secret', from: '+3197010000000', apiUrl: `${base}/twilio` });
    expect(await adapter.send({ to: '+4915112345678', text: 'Ä code', reference: '8' })).toEqual({ providerId: 'SM1' });
    expect(recorded[0].headers.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(recorded[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(recorded[0].body))).toEqual({
      To: '+4915112345678',
      From: '+3197010000000',
      Body: 'Ä code',
    });
  });

  it('throws on a refusal and on an unreachable provider', async () => {
    answer = { status: 422, body: '{"errors":[{"description":"no balance"}]}' };
    const adapter = messageBirdAdapter({ apiKey: 'k', from: 'Amora', apiUrl: `${base}/messages` });
    await expect(adapter.send({ to: '+31612345678', text: 'x', reference: '1' })).rejects.toThrow(SmsProviderError);
    const nowhere = messageBirdAdapter({ apiKey: 'k', from: 'Amora', apiUrl: 'http://127.0.0.1:1/messages' });
    await expect(nowhere.send({ to: '+31612345678', text: 'x', reference: '1' })).rejects.toThrow(/unreachable/);
  });

  it('is chosen by the config: none by default', () => {
    expect(createSmsAdapter(loadConfig({}).sms)).toBeNull();
    expect(createSmsAdapter(loadConfig({ SMS_PROVIDER: 'twilio', SMS_API_KEY: 'AC1:t' }).sms)?.name).toBe('twilio');
    expect(createSmsAdapter(loadConfig({ SMS_PROVIDER: 'messagebird', SMS_API_KEY: 'k' }).sms)?.name).toBe('messagebird');
    expect(() => loadConfig({ SMS_PROVIDER: 'messagebird' })).toThrow(/SMS_API_KEY/);
    expect(() => loadConfig({ SMS_PROVIDER: 'pigeon' })).toThrow(/SMS_PROVIDER/);
  });
});

describe('the SMS outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const rowOf = async (id: number) => (await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.id, id)))[0];

  /** A server process sending SMS through `adapter`: its own job worker (on the test clock), whose sms.send job uses it. */
  function smsProcess(adapter: SmsAdapter) {
    const jobs = createJobs({ db: t.ctx.db, specs: JOBS, now: t.ctx.now });
    const ctx = { ...t.ctx, jobs };
    const sender = smsOf(ctx, undefined, adapter);
    registerJobs(jobs, { ctx, log: { info() {}, warn() {} } }, [SEND_SMS_JOB]);
    return { sender, jobs };
  }

  it('keeps an SMS for the dev page when no provider is set', async () => {
    const sender = createSmsSender({ db: t.ctx.db, jobs: t.ctx.jobs, adapter: null, now: t.ctx.now });
    const id = await sender.queue({ kind: 'directdebitCode', siteId: 1, userId: null, to: '+31600000001', text: 'hi' });
    await sender.idle();
    expect((await rowOf(id)).status).toBe('dev');
    expect(recorded).toHaveLength(0);
  });

  it('sends through the provider after the commit, and retries a failure with backoff', async () => {
    const adapter = messageBirdAdapter({ apiKey: 'k', from: 'Amora', apiUrl: `${base}/messages` });
    const { sender, jobs } = smsProcess(adapter);
    answer = { status: 503, body: 'down' };
    const id = await sender.queue({ kind: 'directdebitCode', siteId: 1, userId: null, to: '+31600000002', text: 'code 1' });
    await sender.idle();
    expect(recorded).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 1 });
    answer = { status: 201, body: '{"id":"m2"}' };
    t.clock.advance(31_000);
    // The retry: one more SMS is sent.
    expect(await jobs.runDue()).toBe(1);
    expect(recorded).toHaveLength(2);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    // A job run again (at least once delivery) does not send twice.
    await jobs.enqueue(t.ctx.db, SEND_SMS_JOB, { outboxId: id });
    await jobs.runDue();
    expect(recorded).toHaveLength(2);
  });

  it('drops an SMS whose content expired before it could go', async () => {
    const adapter = messageBirdAdapter({ apiKey: 'k', from: 'Amora', apiUrl: `${base}/messages` });
    const { sender, jobs } = smsProcess(adapter);
    answer = { status: 500, body: 'down' };
    const validUntil = new Date(t.ctx.now().getTime() + 60_000);
    const id = await sender.queue({ kind: 'directdebitCode', siteId: 1, userId: null, to: '+31600000003', text: 'c', validUntil });
    await sender.idle();
    t.clock.advance(10 * 60_000);
    await jobs.runDue();
    expect(recorded).toHaveLength(1);
    expect((await rowOf(id)).status).toBe('dropped');
  });

  it('writes the text in the member language, with the fallback', () => {
    expect(smsText('directdebitCode', 'de', { code: '123456', site: 'Amora', count: 10 })).toContain('123456 ist dein Amora-Code');
    expect(smsText('directdebitCode', 'xx', { code: '123456', site: 'Amora', count: 1 })).toContain('valido per 1 minuto');
  });
});

describe('the dev SMS page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists SMS as HTML and JSON, filtered by number, escaped', async () => {
    const sender = createSmsSender({ db: t.ctx.db, jobs: t.ctx.jobs, adapter: null });
    await sender.queue({ kind: 'directdebitCode', siteId: 1, userId: null, to: '+31611112222', text: '<b>111111</b>' });
    await sender.queue({ kind: 'directdebitCode', siteId: 1, userId: null, to: '+31633334444', text: '222222' });
    const json = await t.app.inject({ url: '/api/dev/sms.php?to=%2B31611112222', headers: { host: 'localhost:3000' } });
    expect(json.statusCode).toBe(200);
    expect(json.json().messages).toEqual([expect.objectContaining({ to: '+31611112222', text: '<b>111111</b>', status: 'dev' })]);
    // `+` in a query string is a space: still the same number.
    const plus = await t.app.inject({ url: '/api/dev/sms.php?to=+31633334444', headers: { host: 'localhost:3000' } });
    expect(plus.json().messages.map((m: { text: string }) => m.text)).toEqual(['222222']);
    const html = await t.app.inject({ url: '/dev/sms', headers: { host: 'localhost:3000' } });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('&lt;b&gt;111111&lt;/b&gt;');
    expect(html.body).not.toContain('<b>111111</b>');
    const bad = await t.app.inject({ url: '/api/dev/sms.php?to=%00', headers: { host: 'localhost:3000' } });
    expect(bad.statusCode).toBe(400);
  });

  it('is not there in production', async () => {
    const prod = await createTestApp({ isProduction: true });
    try {
      const res = await prod.app.inject({ url: '/api/dev/sms.php', headers: { host: 'localhost:3000' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
