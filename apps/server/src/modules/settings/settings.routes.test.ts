import { packagesResponseSchema, settingsSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { callAs, createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/settings.php', () => {
  it('answers the site picked by the host with every setting of the spec', async () => {
    const res = await t.app.inject({ url: '/api/settings.php', headers: { host: 'localhost:3000' } });
    expect(res.statusCode).toBe(200);
    const body = settingsSchema.parse(res.json());
    expect(body.name).toBe('Amora');
    expect(body.company_id).toBe(1);
    expect(body.terms_date).toBe('2023-12-01');
  });

  it('picks the second site by its host and sets the language cookie from domain_language', async () => {
    const res = await t.app.inject({ url: '/api/settings.php', headers: { host: 'herzklopfen.localhost:3000' } });
    const body = res.json();
    expect(body.name).toBe('Herzklopfen');
    expect(body.company_id).toBe(5);
    expect(body.terms_date).toBe('2024-03-15');
    const cookie = res.cookies.find((c) => c.name === 'i18n_redirected');
    expect(cookie?.value).toBe('de');
    expect(cookie?.maxAge).toBe(365 * 86_400);
  });

  it('leaves an existing language cookie alone', async () => {
    const res = await t.app.inject({
      url: '/api/settings.php',
      headers: { host: 'herzklopfen.localhost', cookie: 'i18n_redirected=fr' },
    });
    expect(res.cookies.find((c) => c.name === 'i18n_redirected')).toBeUndefined();
  });

  it('selects a site by forced host outside production and remembers it', async () => {
    const res = await t.app.inject({ url: '/api/settings.php?forced_host=herzklopfen.localhost', headers: { host: 'localhost' } });
    expect(res.json().name).toBe('Herzklopfen');
    const forced = res.cookies.find((c) => c.name === 'forced_host');
    expect(forced?.value).toBe('herzklopfen.localhost');
    const next = await t.app.inject({ url: '/api/settings.php', headers: { host: 'localhost', cookie: `forced_host=${forced?.value}` } });
    expect(next.json().name).toBe('Herzklopfen');
  });

  it('ignores a forced host in production', async () => {
    const prod = await createTestApp({ isProduction: true });
    try {
      const res = await prod.app.inject({ url: '/api/settings.php?forced_host=herzklopfen.localhost', headers: { host: 'localhost' } });
      expect(res.json().name).toBe('Amora');
    } finally {
      await prod.close();
    }
  });

  it('marks traffic-source visitors and keeps their tracking data in a cookie', async () => {
    const res = await t.app.inject({ url: '/api/settings.php?network=adnet&sub1=abc', headers: { host: 'localhost' } });
    expect(res.json().is_trafficsource).toBe(true);
    const tracking = res.cookies.find((c) => c.name === 'tracking');
    expect(JSON.parse(tracking?.value ?? '{}')).toEqual({ network: 'adnet', sub1: 'abc' });
    expect(tracking?.httpOnly).toBe(true);
  });

  it("derives the visitor country from the trusted proxy's geo header and falls back to the site default", async () => {
    const behindProxy = await createTestApp({ trustProxy: true, geoCountryHeader: 'cf-ipcountry' });
    try {
      const nl = await behindProxy.app.inject({ url: '/api/settings.php', headers: { host: 'localhost', 'cf-ipcountry': 'BE' } });
      expect(nl.json().geoip_country).toBe('BE');
      expect(nl.json().geoip_selected_country).toBe('BE');
      expect(nl.json().region_data.length).toBeGreaterThan(0);
      const other = await behindProxy.app.inject({
        url: '/api/settings.php',
        headers: { host: 'herzklopfen.localhost', 'cf-ipcountry': 'US' },
      });
      expect(other.json().geoip_country).toBe('US');
      expect(other.json().geoip_selected_country).toBe('DE');
      // Another geo header than the one the proxy sets is the client's own word.
      const spoofed = await behindProxy.app.inject({ url: '/api/settings.php', headers: { host: 'localhost', 'x-country-code': 'PL' } });
      expect(spoofed.json().geoip_country).toBeNull();
      expect(spoofed.json().geoip_selected_country).toBe('NL');
    } finally {
      await behindProxy.close();
    }
  });

  it('reads no geo header a client sends without a trusted proxy, or without GEO_COUNTRY_HEADER', async () => {
    const untrusted = await createTestApp({ trustProxy: false, geoCountryHeader: 'x-country-code' });
    const unnamed = await createTestApp({ trustProxy: true, geoCountryHeader: null });
    try {
      for (const app of [t, untrusted, unnamed]) {
        for (const header of ['x-country-code', 'cf-ipcountry']) {
          const res = await app.app.inject({ url: '/api/settings.php', headers: { host: 'localhost', [header]: 'PL' } });
          expect(res.json().geoip_country, header).toBeNull();
          expect(res.json().geoip_selected_country, header).toBe('NL');
        }
      }
    } finally {
      await untrusted.close();
      await unnamed.close();
    }
  });

  it("keeps a member's payment country when they send a geo header of their own before their first purchase", async () => {
    const pia = await createMember(t);
    for (const header of ['x-country-code', 'cf-ipcountry']) {
      const res = await callAs(t, pia, 'GET', '/api/packages.php', undefined, { headers: { [header]: 'PL' } });
      expect(res.statusCode, res.body).toBe(200);
      const answer = packagesResponseSchema.parse(res.json());
      expect(answer.payment_country).toBe('NL');
      expect(answer.currency).toBe('EUR');
    }
  });

  it('takes GEO_COUNTRY_HEADER as a header name, lower-cased, and none by default', () => {
    expect(loadConfig({}).geoCountryHeader).toBeNull();
    expect(loadConfig({ GEO_COUNTRY_HEADER: 'CF-IPCountry' }).geoCountryHeader).toBe('cf-ipcountry');
    expect(() => loadConfig({ GEO_COUNTRY_HEADER: 'X Country: PL' })).toThrow(/GEO_COUNTRY_HEADER/);
  });

  it('answers a link whose query carries a control character, leaving that value out (no tracking from it)', async () => {
    for (const query of ['ref=%01', 'network=ad%1Bnet&sub1=%7F', 'lb=%00', 'ref=a&ref=%01']) {
      const res = await t.app.inject({ url: `/api/settings.php?${query}`, headers: { host: 'localhost' } });
      expect(res.statusCode, query).toBe(200);
      expect(res.json().name, query).toBe('Amora');
      expect(
        res.cookies.find((c) => c.name === 'tracking'),
        query,
      ).toBeUndefined();
    }
    const kept = await t.app.inject({ url: '/api/settings.php?network=adnet&ref=%01', headers: { host: 'localhost' } });
    expect(JSON.parse(kept.cookies.find((c) => c.name === 'tracking')?.value ?? '{}')).toEqual({ network: 'adnet' });
  });

  it('rejects an over-long forced host with a 400 naming the field', async () => {
    const res = await t.app.inject({ url: `/api/settings.php?forced_host=${'a'.repeat(300)}`, headers: { host: 'localhost' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'forced_host' });
  });
});
