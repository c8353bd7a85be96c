import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, createTestApp, type TestApp } from '../test/harness';

const SECRET = 'connect to db-internal:5432 as amora_admin';
/** What no error answer may show: the database, the ORM, SQL, error codes and class names, file paths. */
const INTERNALS = /postgres|pglite|drizzle|select|insert|syntax|FST_|sqlstate|22021|22003|22P02|\/work\/|node_modules/i;
const CLASS_NAME = /\b[A-Z]\w*Error\b/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      beforeReady(app) {
        // Values a schema let through that the database refuses (class 22, data exception), run for real.
        const queries: Record<string, () => unknown> = {
          nul: () => app.ctx.db.execute(sql`select ${'a\u0000b'}::text as v`),
          range: () => app.ctx.db.execute(sql`select ${'9223372036854775808'}::bigint as v`),
          malformed: () => app.ctx.db.execute(sql`select ${'twelve'}::integer as v`),
          missing: () => app.ctx.db.execute(sql`select * from no_such_table`),
        };
        app.get<{ Params: { kind: string } }>('/api/test-db/:kind', async (request) => {
          await queries[request.params.kind]();
          return { ok: true };
        });
        app.get('/api/test-client-error.php', async () => {
          throw Object.assign(new Error(SECRET), { statusCode: 400 });
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

describe('database data errors that slip past validation', () => {
  it.each([
    ['nul', 'a NUL byte in text (22021)'],
    ['range', 'a number past bigint (22003)'],
    ['malformed', 'text that is no number (22P02)'],
  ])('%s: %s answers 400 without internals', async (kind) => {
    const res = await t.app.inject({ url: `/api/test-db/${kind}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation_failed', message: 'A value in the request cannot be stored' });
    expect(res.body).not.toMatch(INTERNALS);
    expect(res.body).not.toMatch(CLASS_NAME);
  });

  it('other database errors stay a generic 500 without internals', async () => {
    const res = await t.app.inject({ url: '/api/test-db/missing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal_error', message: 'An error occurred, please try again later' });
    expect(res.body).not.toMatch(INTERNALS);
    expect(res.body).not.toMatch(CLASS_NAME);
  });
});

describe('client errors', () => {
  it("a 4xx error that is not ours or Fastify's keeps its status but not its message", async () => {
    const res = await t.app.inject({ url: '/api/test-client-error.php' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message: 'The request is not valid' });
    expect(res.body).not.toContain('db-internal');
  });

  it('a body that is not JSON names the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/complaints.php',
      headers: { ...CLIENT, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: "Body is not valid JSON but content-type is set to 'application/json'",
      field: 'body',
    });
  });

  it.each([
    ['/api/assets/paymentmethod/%ZZ.svg', 400],
    ['/api/assets/paymentmethod/%C3%28.svg', 400],
    [`/api/assets/paymentmethod/${'x'.repeat(300)}.svg`, 414],
  ])('a path the router cannot read (%s) answers in our shape', async (url, status) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: 'bad_request', message: 'The address of the request is not valid', field: 'path' });
    expect(res.body).not.toMatch(INTERNALS);
    expect(res.body).not.toMatch(CLASS_NAME);
  });
});
