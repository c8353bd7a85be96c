import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCookies, registerCookies } from './cookies';

describe('cookies', () => {
  const app = Fastify() as unknown as FastifyInstance;
  beforeAll(async () => {
    registerCookies(app);
    app.addHook('onRequest', (request, _reply, done) => {
      readCookies(request);
      done();
    });
    app.get('/read', async (request) => ({ cookies: { ...request.cookies } }));
    app.get('/set', async (_request, reply) => {
      reply.setCookie('a', 'one two', { path: '/', httpOnly: true, maxAge: 60 });
      reply.setCookie('b', 'x', { sameSite: 'strict', secure: true });
      reply.clearCookie('c');
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('parses the Cookie header, decoding values, and gives an empty object without one', async () => {
    expect((await app.inject({ url: '/read', headers: { cookie: 'i18n_redirected=de; x=a%20b' } })).json()).toEqual({
      cookies: { i18n_redirected: 'de', x: 'a b' },
    });
    expect((await app.inject({ url: '/read' })).json()).toEqual({ cookies: {} });
  });

  it('writes one Set-Cookie header per cookie, SameSite=Lax unless told otherwise, and clears with an expired one', async () => {
    const res = await app.inject({ url: '/set' });
    expect(res.headers['set-cookie']).toEqual([
      'a=one%20two; Max-Age=60; Path=/; HttpOnly; SameSite=Lax',
      'b=x; Secure; SameSite=Strict',
      'c=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    ]);
    expect(res.cookies.find((c) => c.name === 'a')?.value).toBe('one two');
  });
});
