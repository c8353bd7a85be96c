import { type EndpointKey, endpoints } from '@amora/contracts';
import Fastify from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { endpoint, holdRoutesToEndpoints } from './endpoints';
import { validatorWithEmptyShortcut } from './validation';

const keys = Object.keys(endpoints) as EndpointKey[];
/** A key's route: its method and path, and for a variant with a query (`?push=1`) the router's constraint. */
const split = (key: string) => {
  const [url, query] = key.slice(key.indexOf(' ') + 1).split('?');
  return { method: key.slice(0, key.indexOf(' ')), url, ...(query ? { constraints: { query } } : {}) };
};

describe('the app and the endpoints table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every entry of the table with a route of its method and path', () => {
    expect(keys.length).toBeGreaterThan(60);
    const missing = keys.filter((key) => !t.app.hasRoute(split(key) as { method: 'GET'; url: string }));
    expect(missing).toEqual([]);
  });

  it('builds in production without the development-only entries', async () => {
    const prod = await createTestApp({ isProduction: true });
    try {
      const devOnly = Object.entries(endpoints).filter(([, entry]) => 'dev' in entry && entry.dev);
      expect(devOnly.length).toBeGreaterThan(0);
      for (const [key] of devOnly) expect(prod.app.hasRoute(split(key) as { method: 'GET'; url: string }), key).toBe(false);
    } finally {
      await prod.close();
    }
  });
});

describe('holding routes to the table', () => {
  function bareApp() {
    const app = Fastify();
    app.setValidatorCompiler(validatorWithEmptyShortcut);
    app.setSerializerCompiler(serializerCompiler);
    const checkEveryEndpointAnswered = holdRoutesToEndpoints(app, { production: false });
    return { app, checkEveryEndpointAnswered };
  }

  it('refuses an /api route without an entry', async () => {
    const { app } = bareApp();
    await expect(async () => {
      app.get('/api/stray.php', async () => ({ ok: true }));
      await app.ready();
    }).rejects.toThrow('GET /api/stray.php has no entry in the endpoints table');
  });

  it("refuses a route with another entry's schemas, or with its own written out by hand", async () => {
    const borrowed = bareApp().app;
    await expect(async () => {
      borrowed.route({
        ...endpoint('GET /api/likes.php'),
        url: '/api/chats.php',
        handler: async () => ({ chats: [], num_unread_messages: 0 }),
      });
      await borrowed.ready();
    }).rejects.toThrow(
      "GET /api/chats.php must take its method, path and schemas from its entry: app.route({ ...endpoint('GET /api/chats.php'), … })",
    );
    const handWritten = bareApp().app;
    await expect(async () => {
      handWritten.get('/api/chats.php', { schema: { ...endpoint('GET /api/chats.php').schema } }, async () => ({
        chats: [],
        num_unread_messages: 0,
      }));
      await handWritten.ready();
    }).rejects.toThrow('GET /api/chats.php must take its method, path and schemas from its entry');
  });

  it('names the entries no route answers', async () => {
    const { app, checkEveryEndpointAnswered } = bareApp();
    app.route({ ...endpoint('GET /api/likes.php'), handler: async () => ({ liked: [], liked_by: [] }) as never });
    await app.ready();
    expect(checkEveryEndpointAnswered).toThrow(
      /Entries of the endpoints table no route answers: GET \/api\/settings\.php, .*POST \/api\/dev\/premium\.php/,
    );
    expect(() => checkEveryEndpointAnswered()).not.toThrow(/GET \/api\/likes\.php/);
  });

  it('lets a test add routes of its own once the app is built', async () => {
    const { app, checkEveryEndpointAnswered } = bareApp();
    expect(checkEveryEndpointAnswered).toThrow();
    app.get('/api/test-only.php', async () => ({ ok: true }));
    await expect(app.ready()).resolves.toBeDefined();
  });

  it('leaves routes outside /api, and the API documentation, alone', async () => {
    const { app } = bareApp();
    app.get('/sandbox/x', async () => 'x');
    app.get('/api/docs/json', async () => ({}));
    await expect(app.ready()).resolves.toBeDefined();
  });
});
