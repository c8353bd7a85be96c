import { DEMO_MEMBERS, DEMO_PASSWORD } from '@amora/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAllSites } from './modules/sites/sites.repository';
import { type BoundAddress, reachableHosts, type SiteAddresses, siteAddresses, startBanner } from './start-banner';
import { progressLine } from './start-progress';
import { call, login } from './test/accounts';
import { createTestApp, type TestApp } from './test/harness';

const PORT = 3000;

/** Where `app.listen` binds for each HOST (what Fastify's `addresses()` reports). */
const HOSTS: { host: string; bound: BoundAddress[] }[] = [
  {
    host: 'localhost',
    bound: [
      { address: '127.0.0.1', family: 'IPv4' },
      { address: '::1', family: 'IPv6' },
    ],
  },
  { host: '127.0.0.1', bound: [{ address: '127.0.0.1', family: 'IPv4' }] },
  { host: '0.0.0.0', bound: [{ address: '0.0.0.0', family: 'IPv4' }] },
  { host: '::', bound: [{ address: '::', family: 'IPv6' }] },
  { host: '::1', bound: [{ address: '::1', family: 'IPv6' }] },
  // A machine's name, bound to its network address: no *.localhost name reaches it.
  { host: 'dating-box.example', bound: [{ address: '192.0.2.10', family: 'IPv4' }] },
];

let dev: TestApp;
let prod: TestApp;
beforeAll(async () => {
  [dev, prod] = await Promise.all([createTestApp(), createTestApp({ isProduction: true })]);
});
afterAll(async () => {
  await Promise.all([dev.close(), prod.close()]);
});

async function addressesFor(t: TestApp, host: string, bound: BoundAddress[]): Promise<SiteAddresses[]> {
  return siteAddresses({
    sites: await findAllSites(t.ctx.db),
    lookup: t.ctx.sites,
    bound,
    listenHost: host,
    port: PORT,
    isProduction: t.ctx.config.isProduction,
  });
}

/** A request to `path` as a browser that opened `printed` sends it: that URL's Host header and query. */
function asOpenedFrom(printed: string, path: string): { url: string; host: string } {
  const url = new URL(printed);
  return { url: `${path}${url.search}`, host: url.host };
}

describe('the addresses npm start prints', () => {
  for (const { host, bound } of HOSTS) {
    it(`with HOST=${host}, every printed address reaches the site it is printed for, and every site gets one`, async () => {
      const addresses = await addressesFor(dev, host, bound);
      expect(addresses.map((a) => a.site.name).sort()).toEqual(['Amora', 'Herzklopfen']);
      for (const { site, urls } of addresses) {
        expect(urls.length, `${site.name} has an address`).toBeGreaterThan(0);
        for (const printed of urls) {
          const { url, host: hostHeader } = asOpenedFrom(printed, '/api/settings.php');
          const res = await dev.app.inject({ url, headers: { host: hostHeader } });
          expect(res.statusCode, printed).toBe(200);
          expect(res.json().name, printed).toBe(site.name);
        }
      }
    });
  }

  it('with HOST=127.0.0.1 prints 127.0.0.1 for Herzklopfen, whose address it is, and a name of its own for Amora', async () => {
    const addresses = await addressesFor(dev, '127.0.0.1', HOSTS[1].bound);
    const urls = Object.fromEntries(addresses.map((a) => [a.site.name, a.urls]));
    expect(urls.Amora).toEqual(['http://amora.localhost:3000/', 'http://localhost:3000/']);
    expect(urls.Herzklopfen).toEqual(['http://herzklopfen.localhost:3000/', 'http://127.0.0.1:3000/']);
  });

  it('opens a site that no name on a network-bound HOST reaches with a forced host, outside production only', async () => {
    const { host, bound } = HOSTS[5];
    const devUrls = Object.fromEntries((await addressesFor(dev, host, bound)).map((a) => [a.site.name, a.urls]));
    expect(devUrls.Amora).toEqual(['http://dating-box.example:3000/', 'http://192.0.2.10:3000/']);
    expect(devUrls.Herzklopfen).toEqual(['http://dating-box.example:3000/?forced_host=herzklopfen.localhost']);
    // In production an unknown host gets no site, so nothing is printed for either (no default-site fallback).
    const prodAddresses = await addressesFor(prod, host, bound);
    expect(prodAddresses.map((a) => a.urls)).toEqual([[], []]);
  });

  for (const { host, bound } of HOSTS.slice(0, 4)) {
    it(`in production with HOST=${host}, only the sites' own names are printed, and they answer`, async () => {
      for (const { site, urls } of await addressesFor(prod, host, bound)) {
        for (const printed of urls) {
          const { url, host: hostHeader } = asOpenedFrom(printed, '/api/settings.php');
          expect(url).not.toContain('forced_host');
          const res = await prod.app.inject({ url, headers: { host: hostHeader } });
          expect(res.json().name, printed).toBe(site.name);
        }
      }
    });
  }

  it('prints each demo login only beside a site it works on, at that address', async () => {
    for (const { host, bound } of [HOSTS[1], HOSTS[5]]) {
      const addresses = await addressesFor(dev, host, bound);
      const banner = startBanner({
        database: 'PGlite in /data/db',
        addresses,
        apiDocs: true,
        demo: { logins: DEMO_MEMBERS.map((m) => ({ site: m.site, email: m.email })), password: DEMO_PASSWORD },
      });
      for (const member of DEMO_MEMBERS) {
        const entry = addresses.find((a) => a.site.domain === member.site);
        if (!entry) throw new Error(`no site ${member.site}`);
        expect(banner).toContain(`${member.email} on ${entry.site.name}`);
        const { url, host: hostHeader } = asOpenedFrom(entry.urls[0], '/api/user.php');
        const res =
          url === '/api/user.php'
            ? await login(dev, member.email, DEMO_PASSWORD, { host: hostHeader })
            : await call(dev, 'POST', url, { email: member.email, password: DEMO_PASSWORD }, { host: hostHeader });
        expect(res.statusCode, `${member.email} at ${entry.urls[0]}`).toBe(200);
      }
    }
  });
});

describe('startBanner', () => {
  it('is a few lines: the database, one line per site, the API documentation and the demo logins', async () => {
    const addresses = await addressesFor(dev, 'localhost', HOSTS[0].bound);
    const banner = startBanner({
      database: 'PGlite in /srv/amora/data/db',
      addresses,
      apiDocs: true,
      demo: { logins: DEMO_MEMBERS.map((m) => ({ site: m.site, email: m.email })), password: DEMO_PASSWORD },
    });
    expect(banner.trim().split('\n')).toEqual([
      'Amora is running on PGlite in /srv/amora/data/db.',
      '  Amora:              http://amora.localhost:3000/   (or http://localhost:3000/)',
      '  Herzklopfen:        http://herzklopfen.localhost:3000/   (or http://127.0.0.1:3000/)',
      '  API documentation:  http://amora.localhost:3000/api/docs',
      '  Demo login:         demo@amora.example on Amora, demo@herzklopfen.example on Herzklopfen (password amora-demo-2026)',
    ]);
  });

  it('says where payments go: the sandbox with its dashboard, Mollie, or nowhere', async () => {
    const addresses = await addressesFor(dev, 'localhost', HOSTS[0].bound);
    const banner = (payments: 'mollie-test' | 'mollie-live' | 'sandbox' | 'off') =>
      startBanner({ database: 'PostgreSQL', addresses, apiDocs: false, demo: null, payments });
    const line = (text: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith('  Payments:'))
        ?.replace(/ +/g, ' ');
    expect(line(banner('sandbox'))).toBe(' Payments: test sandbox (no MOLLIE_API_KEY), dashboard http://amora.localhost:3000/sandbox');
    expect(line(banner('mollie-test'))).toBe(' Payments: Mollie, test mode');
    expect(line(banner('mollie-live'))).toBe(' Payments: Mollie, live');
    expect(line(banner('off'))).toBe(' Payments: off: nothing can be bought (set MOLLIE_API_KEY)');
  });

  it('says so when a site has no address on this machine, and prints no login for it', () => {
    const banner = startBanner({
      database: 'PostgreSQL',
      addresses: [{ site: { id: 1, name: 'Amora', domain: 'amora.example', hosts: [] }, urls: [] }],
      apiDocs: false,
      demo: { logins: [{ site: 'amora.example', email: 'demo@amora.example' }], password: 'x' },
    });
    expect(banner).toContain('Amora:  only at its domain, amora.example (no address on this machine reaches it)');
    expect(banner).not.toContain('Demo login');
    expect(banner).not.toContain('API documentation');
  });
});

describe('reachableHosts', () => {
  it('knows which names a browser on this machine can use for each binding', () => {
    const onLoopback = reachableHosts([{ address: '127.0.0.1', family: 'IPv4' }], '127.0.0.1');
    expect(['127.0.0.1', 'localhost', 'herzklopfen.localhost'].every(onLoopback)).toBe(true);
    expect(onLoopback('::1')).toBe(false);
    const everywhere = reachableHosts([{ address: '::', family: 'IPv6' }], '::');
    expect(['::1', '[::1]', '127.0.0.1', 'amora.localhost'].every(everywhere)).toBe(true);
    const named = reachableHosts([{ address: '192.0.2.10', family: 'IPv4' }], 'dating-box.example');
    expect(['dating-box.example', '192.0.2.10'].every(named)).toBe(true);
    expect(['localhost', 'amora.localhost', '127.0.0.1'].some(named)).toBe(false);
  });
});

describe('the mail line', () => {
  it('says where mail goes, the dev mailbox at its address when there is no SMTP_URL', async () => {
    const addresses = await addressesFor(dev, 'localhost', HOSTS[0].bound);
    const line = (mail: 'smtp' | 'dev-mailbox' | 'outbox') =>
      startBanner({ database: 'PostgreSQL', addresses, apiDocs: false, demo: null, mail })
        .split('\n')
        .find((l) => l.startsWith('  Mail:'))
        ?.replace(/ +/g, ' ');
    expect(line('dev-mailbox')).toBe(' Mail: not sent (no SMTP_URL), read in the dev mailbox http://amora.localhost:3000/dev/mailbox');
    expect(line('outbox')).toBe(' Mail: not sent: kept in the outbox (set SMTP_URL)');
    expect(line('smtp')).toBe(' Mail: sent through SMTP_URL');
  });
});

describe('the progress line of a first start', () => {
  /** An output that records what is written. */
  const recorder = (isTTY: boolean) => {
    const written: string[] = [];
    return { output: { isTTY, write: (text: string) => written.push(text) }, written };
  };

  it('on a terminal counts up on one line, rewritten in place, and ends it with what was made', () => {
    const { output, written } = recorder(true);
    let clock = 0;
    const progress = progressLine(output, () => clock);
    for (let drawn = 0; drawn <= 600; drawn++) {
      clock += 20;
      progress.show(`Creating the demo data (first start only): portrait ${drawn} of 600`, drawn / 600);
    }
    progress.done('Demo data created: 300 members and 20 chats, in 90 s.');
    const text = written.join('');
    // One line: every rewrite goes back to its start, and only the last state ends it.
    expect(text.split('\n')).toEqual([expect.any(String), '']);
    expect(written.every((w) => w.startsWith('\r'))).toBe(true);
    const counts = [...text.matchAll(/portrait (\d+) of 600/g)].map((m) => Number(m[1]));
    expect(counts[0]).toBe(0);
    expect(counts.at(-1)).toBe(600);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // Not a rewrite per portrait: at most one each 100 ms (600 portraits in 12 s: about 120).
    expect(counts.length).toBeLessThan(150);
    expect(text.endsWith('\rDemo data created: 300 members and 20 chats, in 90 s.\x1b[K\n')).toBe(true);
  });

  it('in a file or a pipe writes a few whole lines at most, no carriage returns', () => {
    const { output, written } = recorder(false);
    const progress = progressLine(output);
    for (let drawn = 0; drawn <= 600; drawn++) progress.show(`portrait ${drawn} of 600`, (drawn / 600) * 0.95);
    progress.show('chats', 1);
    progress.done('Demo data created.');
    expect(written.length).toBeLessThanOrEqual(4);
    expect(written.join('')).not.toContain('\r');
    expect(written.every((line) => line.endsWith('\n'))).toBe(true);
    expect(written[0]).toBe('portrait 0 of 600\n');
    expect(written.at(-1)).toBe('Demo data created.\n');
  });

  it('ends a line it left open before an error is printed under it', () => {
    const { output, written } = recorder(true);
    const progress = progressLine(output);
    progress.show('portrait 3 of 600', 0.005);
    progress.stop();
    expect(written.join('')).toMatch(/\n$/);
  });
});
