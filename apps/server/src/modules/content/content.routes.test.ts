import { companyInfoSchema, INTERESTS, interestsResponseSchema, PAYMENT_METHODS, regionsResponseSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

const AMORA = { host: 'localhost:3000' };
const HERZ = { host: 'herzklopfen.localhost:3000' };
const AMORA_COUNTRIES = ['NL', 'BE', 'FR', 'IT', 'ES', 'DE', 'AT', 'IE', 'GB', 'US', 'CA', 'PL', 'AU', 'NZ', 'CH'];
const HERZ_COUNTRIES = ['DE', 'AT', 'CH', 'NL', 'BE'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/interests.php', () => {
  it("lists the site's interests and lets them be cached", async () => {
    const res = await t.app.inject({ url: '/api/interests.php', headers: AMORA });
    expect(res.statusCode).toBe(200);
    const body = interestsResponseSchema.parse(res.json());
    expect(body.interests).toEqual([...INTERESTS]);
    expect(res.headers['cache-control']).toContain('public');
  });
});

describe('GET /api/regions.php', () => {
  it('answers the regions of every country the site serves', async () => {
    const res = await t.app.inject({ url: '/api/regions.php', headers: AMORA });
    expect(res.statusCode).toBe(200);
    const { regions } = regionsResponseSchema.parse(res.json());
    expect(Object.keys(regions).sort()).toEqual([...AMORA_COUNTRIES].sort());
    for (const [country, list] of Object.entries(regions)) {
      expect(list.length, country).toBeGreaterThan(0);
      for (const region of list) expect(region.code.startsWith(`${country}-`)).toBe(true);
    }
  });

  it('limits the regions to the countries of the site picked by the host', async () => {
    const res = await t.app.inject({ url: '/api/regions.php', headers: HERZ });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().regions).sort()).toEqual([...HERZ_COUNTRIES].sort());
  });

  it('answers one country, with its code read case-insensitively', async () => {
    const lower = await t.app.inject({ url: '/api/regions.php?country=nl', headers: AMORA });
    expect(lower.statusCode).toBe(200);
    const { regions } = regionsResponseSchema.parse(lower.json());
    expect(Object.keys(regions)).toEqual(['NL']);
    expect(regions.NL.map((r) => r.name)).toContain('Noord-Holland');

    const upper = await t.app.inject({ url: '/api/regions.php?country=NL', headers: AMORA });
    expect(upper.json()).toEqual(lower.json());
  });

  it('rejects a country the site does not serve with a 400 naming the field', async () => {
    const notServed = await t.app.inject({ url: '/api/regions.php?country=us', headers: HERZ });
    expect(notServed.statusCode).toBe(400);
    expect(notServed.json()).toMatchObject({ error: 'validation_failed', field: 'country' });

    const unknown = await t.app.inject({ url: '/api/regions.php?country=JP', headers: AMORA });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'validation_failed', field: 'country' });
  });

  it.each(['NLD', 'N', '12', 'n1', ''])('rejects the malformed country code %j with a 400', async (code) => {
    const res = await t.app.inject({ url: `/api/regions.php?country=${encodeURIComponent(code)}`, headers: AMORA });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'country' });
  });
});

describe('GET /api/companyinfo.php', () => {
  it('answers the company behind the default site', async () => {
    const res = await t.app.inject({ url: '/api/companyinfo.php', headers: AMORA });
    expect(res.statusCode).toBe(200);
    const body = companyInfoSchema.parse(res.json());
    expect(body).toMatchObject({
      company_id: 1,
      name: 'Amora Media B.V.',
      kvk: '90123456',
      vat_numbers: ['NL865432109B01'],
      support_email: 'support@amora.example',
      support_phone: '+31 20-123 4567',
      support_phone_dial: '+31201234567',
    });
  });

  it('answers the company of the site picked by the host', async () => {
    const res = await t.app.inject({ url: '/api/companyinfo.php', headers: HERZ });
    expect(res.statusCode).toBe(200);
    const body = companyInfoSchema.parse(res.json());
    expect(body.company_id).toBe(5);
    expect(body.name).toBe('Heartline Digital Ltd');
    expect(body.tradenames).toEqual(['Herzklopfen', 'Heartline']);
    expect(body.added).toBe('2024-03-15');
    expect(body.support_email).toBe('hilfe@herzklopfen.example');
    expect(body.support_phone_dial).toBe('+35315550147');
    expect(body.support_phone_dial).not.toMatch(/[-\s]/);
  });
});

describe('GET /api/assets/paymentmethod/{name}.svg', () => {
  it.each([...PAYMENT_METHODS])('serves the %s logo as SVG', async (name) => {
    const res = await t.app.inject({ url: `/api/assets/paymentmethod/${name}.svg`, headers: AMORA });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // A badge of its own: an SVG with its accessible name, no scripts, no links, nothing loaded from elsewhere.
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 64 40"[^>]* role="img" aria-label="[^"]+"/);
    expect(res.body).not.toMatch(/<script|href=|url\(|<image|<foreignObject/i);
  });

  it.each([
    '/api/assets/paymentmethod/amex.svg',
    '/api/assets/paymentmethod/VISA.svg',
    '/api/assets/paymentmethod/..%2f..%2fpackage.json.svg',
    '/api/assets/paymentmethod/visa.png',
    '/api/assets/paymentmethod/',
  ])('answers %s with a JSON 400 or 404, never a 500', async (url) => {
    const res = await t.app.inject({ url, headers: AMORA });
    expect([400, 404]).toContain(res.statusCode);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof res.json().error).toBe('string');
  });
});
