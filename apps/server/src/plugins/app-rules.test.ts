import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, createTestApp, type TestApp } from '../test/harness';
import { GENERIC_ERROR } from './errors';

const SECRET = 'connection to db-internal:5432 refused for user amora_admin';
const INDEX_HTML = '<!doctype html>\n<html lang="en">\n<head><title>Amora</title></head>\n<body><div id="app"></div></body>\n</html>\n';

const APP_JS = `console.log("app");\n${'// the app\n'.repeat(200)}`;

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'index-abc123.js'), APP_JS);
  // What the web build writes beside its text files (apps/web/vite-plugins/precompress.ts).
  writeFileSync(join(webDist, 'assets', 'index-abc123.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(join(webDist, 'assets', 'index-abc123.js.gz'), gzipSync(APP_JS));
  writeFileSync(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp(
    { webDist },
    {
      beforeReady(app) {
        app.get('/api/test-explode.php', async () => {
          throw new Error(SECRET);
        });
        app.post('/api/test-explode.php', async () => {
          throw Object.assign(new TypeError(SECRET), { code: 'ECONNREFUSED' });
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('API fallbacks and errors', () => {
  it.each(['/api/nope.php', '/api/', '/api', '/api/users/1'])('answers the unknown API path %s with a JSON 404', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ error: 'not_found', message: expect.any(String) });
  });

  it('answers an unexpected error with a generic 500 and no internals', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/test-explode.php',
        headers: CLIENT,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, method).toBe(500);
      expect(res.json()).toEqual({ error: 'internal_error', message: 'An error occurred, please try again later' });
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toMatch(/stack|at .*\.ts:\d+|ECONNREFUSED/);
    }
    expect(GENERIC_ERROR).toBe('An error occurred, please try again later');
  });
});

describe('security headers', () => {
  it.each(['/', '/members'])("give the document %s the web app's full set", async (url) => {
    const res = await t.app.inject({ url });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each(['/api/health.php', '/api/settings.php', '/api/nope.php'])('give the API answer %s a set that allows nothing', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('add HSTS to documents in production (API answers are fetched by those documents)', async () => {
    const prod = await createTestApp({ isProduction: true, webDist });
    try {
      for (const url of ['/', '/members', '/de/pages/terms', '/assets/index-abc123.js']) {
        const res = await prod.app.inject({ url });
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      }
      const api = await prod.app.inject({ url: '/api/settings.php', headers: { host: 'amora.localhost' } });
      expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(api.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await prod.close();
    }
  });
});

describe('OpenAPI document', () => {
  it('is served at /api/docs/json and lists the API calls', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Amora API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/settings.php', '/api/complaints.php', '/api/regions.php', '/api/health.php', '/api/page-hidden.php']),
    );
    expect(doc.paths['/api/settings.php'].get).toBeDefined();
    expect(doc.paths['/api/complaints.php'].post.requestBody).toBeDefined();
  });
});

describe('client header rule', () => {
  const calls = [
    ['PUT', '/api/user.php'],
    ['POST', '/api/user.php?push=1'],
    ['DELETE', '/api/chat.php'],
    ['POST', '/api/complaints.php'],
    ['DELETE', '/api/complaints.php'],
    ['PATCH', '/api/settings.php'],
    ['POST', '/api/nope.php'],
  ] as const;

  it.each(calls)('refuses %s %s without X-Request-Type: client with a 403', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: {}, remoteAddress: '10.5.0.1' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'client_header_required', message: expect.any(String) });
  });

  it('refuses a wrong header value too', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user.php',
      payload: {},
      remoteAddress: '10.5.0.2',
      headers: { 'x-request-type': 'Client ' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('lets a state-changing call with the header through to routing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/nope.php', payload: {}, remoteAddress: '10.5.0.3', headers: CLIENT });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });

  it('does not apply to reads', async () => {
    const res = await t.app.inject({ url: '/api/interests.php', remoteAddress: '10.5.0.4' });
    expect(res.statusCode).toBe(200);
  });
});

describe('page routes of the web app', () => {
  it.each([
    ['/', 'en'],
    ['/de/members', 'de'],
    ['/de', 'de'],
    ['/pages/terms', 'en'],
    ['/fr/pages/privacy', 'fr'],
    ['/about', 'en'],
    ['/complaints', 'en'],
    ['/members/42/chat', 'en'],
    ['/nl/landers/video/nl', 'nl'],
    ['/credits/3', 'en'],
    ['/members/?sort=new', 'en'],
  ])('serves %s as the app with status 200 and lang %s', async (url, lang) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain(`<html lang="${lang}">`);
    expect(res.body).toContain('<div id="app"></div>');
  });

  it.each([
    ['/no-such-page', 'en'],
    ['/de/pages/unknown', 'de'],
    ['/en/members', 'en'],
    ['/members/1/2/3/4', 'en'],
    ['/landers/nolander', 'en'],
  ])('serves the unknown page %s as the app with status 404 and lang %s', async (url, lang) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`<html lang="${lang}">`);
  });

  it('serves hashed assets with a year of caching', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toContain('console.log');
  });

  it.each([
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
  ] as const)('sends a browser accepting %s the %s copy the build made', async (accept, encoding, decode) => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBeLessThan(APP_JS.length);
    expect(decode(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the file itself to a client that accepts no compression, or when the build made no copy', async () => {
    const plain = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(APP_JS);
    const identity = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(APP_JS);
    const uncopied = await t.app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(uncopied.statusCode).toBe(200);
    expect(uncopied.headers['content-encoding']).toBeUndefined();
    expect(uncopied.body).toContain('<svg');
  });

  it('serves other files of the build with an hour of caching', async () => {
    const res = await t.app.inject({ url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers a missing asset with a 404, never a 500', async () => {
    const res = await t.app.inject({ url: '/assets/missing-123.js' });
    expect(res.statusCode).toBe(404);
  });

  it('answers a non-GET page request with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/members', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });
});
