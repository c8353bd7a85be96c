import { randomInt } from 'node:crypto';
import { geocodeResponseSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signup } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/geocode.php';

let t: TestApp;
let cookie: string;
/** Rate limits on the Redis run outlive the app: each run gets its own address. */
const ip = () => `10.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const memberIp = ip();

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signup(t, { name: 'Geo Gina' }, { ip: memberIp })).cookie;
});
afterAll(async () => {
  await t?.close();
});

function geocode(query: string, options: { cookie?: string; ip?: string } = { cookie }) {
  return call(t, 'GET', `${ROUTE}${query ? `?${query}` : ''}`, undefined, { cookie: options.cookie, ip: options.ip ?? memberIp });
}

describe('GET /api/geocode.php', () => {
  it('finds Amsterdam, its country and region from its centre', async () => {
    const res = await geocode('lat=52.3731&lon=4.8922');
    expect(res.statusCode).toBe(200);
    expect(geocodeResponseSchema.parse(res.json())).toEqual({
      city_id: 2759794,
      city: 'Amsterdam',
      country: 'NL',
      region: 'NL-NH',
      region_name: 'Noord-Holland',
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('finds Munich in Germany and Zürich in Switzerland', async () => {
    const munich = await geocode('lat=48.1372&lon=11.5756');
    expect(munich.statusCode).toBe(200);
    expect(munich.json()).toMatchObject({ city: 'Munich', country: 'DE', region: 'DE-BY' });
    const zurich = await geocode('lat=47.3769&lon=8.5417');
    expect(zurich.statusCode).toBe(200);
    expect(zurich.json()).toMatchObject({ city: 'Zürich', country: 'CH', region: 'CH-ZH' });
  });

  it('answers a city without a region where no mapping is reliable', async () => {
    const res = await geocode('lat=53.3498&lon=-6.2603');
    expect(res.json()).toMatchObject({ city: 'Dublin', country: 'IE', region: null, region_name: null });
  });

  it('finds no city far out in the North Sea', async () => {
    const res = await geocode('lat=55.0&lon=3.0');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'no_city', message: 'No city found near this position' });
  });

  it('finds no city outside the target countries', async () => {
    const res = await geocode('lat=55.7558&lon=37.6173');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('no_city');
  });

  it.each([
    ['lat=91&lon=4.9', 'lat'],
    ['lat=52.37&lon=181', 'lon'],
    ['lat=abc&lon=4.9', 'lat'],
    ['lat=52.37', 'lon'],
    ['', 'lat'],
  ])('rejects %s with a 400 naming %s', async (query, field) => {
    const res = await geocode(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('requires a session', async () => {
    const res = await geocode('lat=52.3731&lon=4.8922', { ip: memberIp });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
  });

  it('allows 30 lookups a minute per address', async () => {
    const address = ip();
    for (let i = 0; i < 30; i++) {
      const res = await geocode('lat=52.3731&lon=4.8922', { cookie, ip: address });
      expect(res.statusCode).toBe(200);
    }
    const res = await geocode('lat=52.3731&lon=4.8922', { cookie, ip: address });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('rate_limited');
  });
});
