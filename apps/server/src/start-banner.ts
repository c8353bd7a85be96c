import { isIP } from 'node:net';
import { FORCED_HOST_PARAM } from '@amora/contracts';

/**
 * What `npm start` prints once the server listens: for each site an address that really reaches it from this
 * machine, and the demo logins. An address is printed only when the site directory gives that site for the
 * Host header a browser would send to it; the addresses come from where the server is bound, so the lines
 * hold for any HOST (0.0.0.0, ::, 127.0.0.1, localhost, a host name).
 */

/** One address the server listens on, as `server.address()` / Fastify's `addresses()` report it. */
export interface BoundAddress {
  address: string;
  family: string;
}

export interface BannerSite {
  id: number;
  name: string;
  domain: string;
  hosts: string[];
}

/** The site directory, as the request gate uses it. */
export interface SiteLookup {
  /** The site a request with this Host header gets (`strict`: production, no default site for unknown hosts). */
  forHost(host: string, strict: boolean): Promise<{ id: number } | null>;
  /** The site `?forced_host=` names (honoured outside production). */
  byKnownHost(host: string): Promise<{ id: number } | null>;
}

export interface SiteAddresses {
  site: BannerSite;
  /** Addresses that reach the site, best first; empty when none on this machine does. */
  urls: string[];
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);
const LOOPBACK = new Set(['127.0.0.1', '::1']);

/** The names and addresses a browser on this machine can connect to, given where the server is bound. */
export function reachableHosts(bound: readonly BoundAddress[], listenHost: string): (name: string) => boolean {
  const literals = new Set<string>();
  for (const { address, family } of bound) {
    if (address === '0.0.0.0') literals.add('127.0.0.1');
    else if (address === '::') {
      literals.add('::1');
      // Node binds :: to IPv4 as well unless told ipv6Only.
      literals.add('127.0.0.1');
    } else literals.add(family === 'IPv6' || family === '6' ? address.toLowerCase() : address);
  }
  const loopback = [...literals].some((a) => LOOPBACK.has(a));
  const host = listenHost.toLowerCase();
  // A host name (not an address) given as HOST resolved to the addresses bound, so it reaches them.
  const named = !WILDCARDS.has(host) && isIP(host) === 0 ? host : null;
  return (name) => {
    const n = name.toLowerCase().replace(/^\[|\]$/g, '');
    if (literals.has(n) || n === named) return true;
    // Browsers send localhost and every *.localhost name to the loopback addresses (RFC 6761 §6.3).
    return loopback && (n === 'localhost' || n.endsWith('.localhost'));
  };
}

/** `http://name:port` as a browser writes it (IPv6 in brackets, no :80). */
function origin(name: string, port: number): string {
  const host = isIP(name) === 6 ? `[${name}]` : name;
  return `http://${host}${port === 80 ? '' : `:${port}`}`;
}

/** The Host header a browser sends for an origin. */
function hostHeader(name: string, port: number): string {
  return new URL(origin(name, port)).host;
}

/**
 * For each site, the addresses on this machine whose Host header the site directory resolves to that site: its
 * domain and its hosts first, then the HOST the server was started with (which an unknown-host fallback may
 * give it). Outside production a site that no such name reaches is opened by `?forced_host=` on an address
 * that reaches the server.
 */
export async function siteAddresses(options: {
  sites: readonly BannerSite[];
  lookup: SiteLookup;
  bound: readonly BoundAddress[];
  listenHost: string;
  port: number;
  isProduction: boolean;
}): Promise<SiteAddresses[]> {
  const { sites, lookup, bound, listenHost, port, isProduction } = options;
  const reachable = reachableHosts(bound, listenHost);
  const wildcard = WILDCARDS.has(listenHost);
  const bare = (name: string) => name.replace(/^\[|\]$/g, '');
  // Names that reach the server whatever site they name: HOST itself, localhost, the addresses bound.
  const serverNames = [wildcard ? null : bare(listenHost), 'localhost', ...bound.map((b) => b.address)].filter(
    (n): n is string => n !== null && !WILDCARDS.has(n) && reachable(n),
  );
  if (bound.some((b) => WILDCARDS.has(b.address))) serverNames.push(...[...LOOPBACK].filter(reachable));
  const result: SiteAddresses[] = [];
  for (const site of sites) {
    const names = [site.domain, ...site.hosts, ...serverNames];
    const urls: string[] = [];
    for (const name of [...new Set(names.map((n) => n.toLowerCase()))]) {
      if (urls.length === 2 || !reachable(name)) continue;
      const found = await lookup.forHost(hostHeader(name, port), isProduction);
      if (found?.id === site.id) urls.push(`${origin(name, port)}/`);
    }
    if (urls.length === 0 && !isProduction && serverNames.length > 0) {
      const forced = await lookup.byKnownHost(site.domain);
      if (forced?.id === site.id) urls.push(`${origin(serverNames[0], port)}/?${FORCED_HOST_PARAM}=${encodeURIComponent(site.domain)}`);
    }
    result.push({ site, urls });
  }
  return result;
}

export interface DemoLogin {
  /** The domain of the site the account belongs to. */
  site: string;
  email: string;
}

/** The lines printed after start: where the server runs, each site's address, the API documentation, the demo logins. */
export function startBanner(options: {
  database: string;
  addresses: readonly SiteAddresses[];
  apiDocs: boolean;
  demo: { logins: readonly DemoLogin[]; password: string } | null;
  /** The demo console's staff (development): their addresses, one password, and where their code is shown. */
  console?: { emails: readonly string[]; password: string } | null;
  /** Where payments go: Mollie (test or live key), the built-in sandbox, or nowhere (production without a key). */
  payments?: 'mollie-test' | 'mollie-live' | 'sandbox' | 'off';
  /** Where mail goes: SMTP, the dev mailbox (no SMTP_URL, outside production), or only the outbox. */
  mail?: 'smtp' | 'dev-mailbox' | 'outbox';
}): string {
  const { addresses, demo } = options;
  const rows: [string, string][] = [];
  for (const { site, urls } of addresses) {
    const [first, ...more] = urls;
    rows.push([
      site.name,
      first
        ? `${first}${more.length ? `   (or ${more.join(', ')})` : ''}`
        : `only at its domain, ${site.domain} (no address on this machine reaches it)`,
    ]);
  }
  if (addresses.length === 0) rows.push(['Sites', 'none yet']);
  const docsBase = addresses.flatMap((a) => a.urls).find((u) => !u.includes('?'));
  if (options.apiDocs && docsBase) rows.push(['API documentation', `${docsBase}api/docs`]);
  if (options.payments === 'sandbox')
    rows.push(['Payments', `test sandbox (no MOLLIE_API_KEY)${docsBase ? `, dashboard ${docsBase}sandbox` : ''}`]);
  else if (options.payments === 'mollie-test') rows.push(['Payments', 'Mollie, test mode']);
  else if (options.payments === 'mollie-live') rows.push(['Payments', 'Mollie, live']);
  else if (options.payments === 'off') rows.push(['Payments', 'off: nothing can be bought (set MOLLIE_API_KEY)']);
  if (options.mail === 'dev-mailbox')
    rows.push(['Mail', `not sent (no SMTP_URL), read in the dev mailbox${docsBase ? ` ${docsBase}dev/mailbox` : ''}`]);
  else if (options.mail === 'outbox') rows.push(['Mail', 'not sent: kept in the outbox (set SMTP_URL)']);
  else if (options.mail === 'smtp') rows.push(['Mail', 'sent through SMTP_URL']);
  // Only beside a site that has an address here, so that the login shown works where it is shown.
  const logins = (demo?.logins ?? []).flatMap((login) => {
    const entry = addresses.find((a) => a.site.domain === login.site && a.urls.length > 0);
    return entry ? [`${login.email} on ${entry.site.name}`] : [];
  });
  if (demo && logins.length) rows.push(['Demo login', `${logins.join(', ')} (password ${demo.password})`]);
  if (options.console && docsBase) {
    const [first, ...others] = options.console.emails;
    rows.push([
      'Console',
      `${docsBase}console as ${first} (password ${options.console.password}; the authenticator code at ${docsBase}api/dev/console-code.php)${others.length ? `, also ${others.join(', ')}` : ''}`,
    ]);
  }
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    '',
    `Amora is running on ${options.database}.`,
    ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)} ${value}`),
    '',
  ].join('\n');
}
