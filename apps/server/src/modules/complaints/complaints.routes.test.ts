import { complaints, sites } from '@amora/db';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/complaints.php';
const VALID = {
  name: 'Jo Tester',
  email: 'Jo.Tester@Example.com',
  category: 'billing',
  subject: 'Double charge',
  message: 'I was charged twice for the same credit package last week.',
  url: '/credits',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function complaintCount(): Promise<number> {
  const [{ value }] = await t.ctx.db.select({ value: count() }).from(complaints);
  return value;
}

async function siteIdOf(domain: string): Promise<number> {
  const [row] = await t.ctx.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, domain));
  return row.id;
}

function file(payload: Record<string, unknown>, remoteAddress: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: ROUTE,
    payload,
    remoteAddress,
    headers: { host: 'localhost:3000', ...CLIENT, ...headers },
  });
}

describe('POST /api/complaints.php', () => {
  it('stores the complaint and answers a reference', async () => {
    const res = await file(VALID, '10.1.0.1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.reference).toMatch(/^C-[A-Z2-9]{8}$/);

    const rows = await t.ctx.db.select().from(complaints).where(eq(complaints.reference, body.reference));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      siteId: await siteIdOf('amora.localhost'),
      userId: null,
      name: 'Jo Tester',
      email: 'jo.tester@example.com',
      category: 'billing',
      subject: 'Double charge',
      message: VALID.message,
      url: '/credits',
      language: 'en',
      status: 'open',
    });
  });

  it('stores the complaint for the site picked by the host, in the language of the locale cookie', async () => {
    const res = await file({ ...VALID, url: undefined }, '10.1.0.2', {
      host: 'herzklopfen.localhost:3000',
      cookie: 'i18n_redirected=de',
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.ctx.db.select().from(complaints).where(eq(complaints.reference, res.json().reference));
    expect(row.siteId).toBe(await siteIdOf('herzklopfen.localhost'));
    expect(row.siteId).not.toBe(await siteIdOf('amora.localhost'));
    expect(row.language).toBe('de');
    expect(row.url).toBe('');
  });

  it('gives every complaint its own reference', async () => {
    const a = await file(VALID, '10.1.0.3');
    const b = await file(VALID, '10.1.0.3');
    expect(a.json().reference).not.toBe(b.json().reference);
  });

  it.each([
    ['name', { name: 'J' }],
    ['name', { name: '   J   ' }],
    ['email', { email: 'not-an-email' }],
    ['category', { category: 'spam' }],
    ['subject', { subject: 'Hi' }],
    ['message', { message: 'Too short.' }],
    ['message', { message: undefined }],
  ])('rejects a bad %s with a 400 naming it and stores nothing (%o)', async (field, change) => {
    const before = await complaintCount();
    const res = await file({ ...VALID, ...change }, '10.1.0.4');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field });
    expect(await complaintCount()).toBe(before);
  });

  it('rejects a body that is not JSON with a 400, never a 500', async () => {
    const before = await complaintCount();
    const res = await t.app.inject({
      method: 'POST',
      url: ROUTE,
      payload: '{"name": ',
      remoteAddress: '10.1.0.5',
      headers: { host: 'localhost', 'content-type': 'application/json', ...CLIENT },
    });
    expect(res.statusCode).toBe(400);
    expect(await complaintCount()).toBe(before);
  });

  it('refuses a call without the client header with a 403 and stores nothing', async () => {
    const before = await complaintCount();
    const res = await t.app.inject({
      method: 'POST',
      url: ROUTE,
      payload: VALID,
      remoteAddress: '10.1.0.6',
      headers: { host: 'localhost' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'client_header_required' });

    const wrong = await file(VALID, '10.1.0.6', { 'x-request-type': 'browser' });
    expect(wrong.statusCode).toBe(403);
    expect(await complaintCount()).toBe(before);
  });

  it('allows five complaints an hour from one address and refuses the sixth', async () => {
    const address = '10.1.0.7';
    for (let i = 0; i < 5; i++) {
      const res = await file({ ...VALID, subject: `Complaint ${i + 1}` }, address);
      expect(res.statusCode, `complaint ${i + 1}`).toBe(200);
    }
    const before = await complaintCount();
    const sixth = await file({ ...VALID, subject: 'Complaint 6' }, address);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ error: 'rate_limited' });
    expect(sixth.json().retry_after_seconds).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBe(sixth.json().retry_after_seconds);
    expect(await complaintCount()).toBe(before);
    const [{ value }] = await t.ctx.db.select({ value: count() }).from(complaints).where(eq(complaints.subject, 'Complaint 6'));
    expect(value).toBe(0);

    // Another address is not affected.
    const other = await file(VALID, '10.1.0.8');
    expect(other.statusCode).toBe(200);
  });
});
