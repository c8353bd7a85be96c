import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MediaStorageConfig } from './lib/media-storage';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /**
   * What this installation's Redis keys and event channel start with (REDIS_PREFIX, `amora:` by default), so
   * installations sharing one Redis keep their rate limits and events apart.
   */
  redisPrefix: string;
  smtpUrl: string | null;
  isProduction: boolean;
  logLevel: string;
  seedDemo: boolean;
  trustProxy: boolean;
  /**
   * The lower-cased name of the header the reverse proxy sets to the visitor's country (GEO_COUNTRY_HEADER, e.g.
   * `cf-ipcountry`), read only with TRUST_PROXY; null (the default): no geo header is read.
   */
  geoCountryHeader: string | null;
  webDist: string;
  /** Requests per minute one address may make to the API (flood guard). */
  apiRateLimit: number;
  /** Signups per hour from one address. */
  signupRateLimit: number;
  /**
   * The port links in mails carry after the site's domain, or null for none (https on 443 in production).
   * Outside production it is the server's own port, so `http://amora.localhost:3000/…` opens on this machine.
   */
  linkPort: number | null;
  /** Whether the OpenAPI document and its viewer are served at /api/docs (always outside production). */
  apiDocs: boolean;
  /**
   * The key that signs the login device cookies (COOKIE_SECRET, at least 32 characters). Without it each process
   * makes its own at start, so a device cookie is known only to the process that issued it until it restarts.
   */
  cookieSecret?: string | null;
  /** The payment provider (modules/payments/provider): Mollie with MOLLIE_API_KEY, else the built-in sandbox. */
  payments: PaymentsConfig;
  /**
   * Where SMS go (modules/sms): 'dev' keeps them in the outbox for the dev SMS page (the default), 'messagebird'
   * or 'twilio' sends them through that provider's HTTP API (SMS_PROVIDER, SMS_API_KEY, SMS_FROM, SMS_API_URL).
   */
  sms?: SmsConfig;
  /** Delivery health of mail (modules/mail): return paths, DKIM, the reports endpoint. See docs/operations.md. */
  mail?: MailConfig;
  /**
   * METRICS_TOKEN: the bearer token Prometheus sends to scrape this process's `/metrics` (at least 16 characters);
   * null: `/metrics` is off (404). See docs/operations.md, "Metrics and health".
   */
  metricsToken: string | null;
  /**
   * Where photos, chat photos and data-export ZIPs are kept (lib/media-storage.ts): DATA_DIR (the default), or an
   * S3-compatible bucket with S3_BUCKET (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
   */
  media: MediaStorageConfig;
}

export interface MailConfig {
  /**
   * MAIL_BOUNCE_DOMAIN: the domain of every mail's return path (`bounces+…@<domain>`, VERP); null: each site's
   * own domain. Its MX must lead to the mailbox whose mail is posted to POST /api/mail-reports.
   */
  bounceDomain: string | null;
  /**
   * MAIL_REPORTS_TOKEN: the bearer token POST /api/mail-reports needs (at least 16 characters); null: the
   * endpoint answers 404. Outside production it defaults to `dev-mail-reports-token`.
   */
  reportsToken: string | null;
  /**
   * MAIL_REPORTS_DIR: a Maildir the bounce mailbox is delivered to; the `mail.read-reports` job reads its `new/`
   * every minute. Null: reports come only through the endpoint.
   */
  reportsDir: string | null;
  /** DKIM_SELECTOR with DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE (PEM): mails are signed for their site's domain. */
  dkim: { selector: string; privateKey: string } | null;
}

/** The development token of POST /api/mail-reports (docs/operations.md), never used in production. */
export const DEV_MAIL_REPORTS_TOKEN = 'dev-mail-reports-token';

function mailConfigOf(env: NodeJS.ProcessEnv, isProduction: boolean): MailConfig {
  const bounceDomain = env.MAIL_BOUNCE_DOMAIN?.trim().toLowerCase() || null;
  if (bounceDomain && !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(bounceDomain)) {
    throw new Error(`MAIL_BOUNCE_DOMAIN must be a domain name, got "${env.MAIL_BOUNCE_DOMAIN}"`);
  }
  const reportsToken = env.MAIL_REPORTS_TOKEN || (isProduction ? null : DEV_MAIL_REPORTS_TOKEN);
  if (reportsToken && reportsToken.length < 16) throw new Error('MAIL_REPORTS_TOKEN must have at least 16 characters');
  const selector = env.DKIM_SELECTOR?.trim() || null;
  const privateKey = env.DKIM_PRIVATE_KEY_FILE
    ? readFileSync(env.DKIM_PRIVATE_KEY_FILE, 'utf8')
    : env.DKIM_PRIVATE_KEY?.replace(/\\n/g, '\n') || null;
  if ((selector === null) !== (privateKey === null)) {
    throw new Error('DKIM signing needs both DKIM_SELECTOR and DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE)');
  }
  if (selector && !/^[a-z0-9]([a-z0-9._-]{0,62})$/i.test(selector)) throw new Error(`DKIM_SELECTOR must be a DNS label, got "${selector}"`);
  if (privateKey && !privateKey.includes('PRIVATE KEY')) throw new Error('DKIM_PRIVATE_KEY must be a PEM private key');
  const reportsDir = env.MAIL_REPORTS_DIR ? resolve(env.MAIL_REPORTS_DIR) : null;
  return { bounceDomain, reportsToken, reportsDir, dkim: selector && privateKey ? { selector, privateKey } : null };
}

export interface SmsConfig {
  provider: 'dev' | 'messagebird' | 'twilio';
  /** MessageBird: the access key; Twilio: `<account SID>:<auth token>`. */
  apiKey: string | null;
  /** The sender shown on the phone: a number in E.164, or up to 11 letters and digits. */
  from: string;
  /** The provider's endpoint; null for its public one (tests and proxies point it elsewhere). */
  apiUrl: string | null;
}

function smsConfigOf(env: NodeJS.ProcessEnv): SmsConfig {
  const provider = (env.SMS_PROVIDER || 'dev').toLowerCase();
  if (provider !== 'dev' && provider !== 'messagebird' && provider !== 'twilio') {
    throw new Error(`SMS_PROVIDER must be dev, messagebird or twilio, got "${env.SMS_PROVIDER}"`);
  }
  const apiKey = env.SMS_API_KEY || null;
  if (provider !== 'dev' && !apiKey) throw new Error(`SMS_PROVIDER=${provider} needs SMS_API_KEY`);
  if (provider === 'twilio' && !apiKey?.includes(':')) throw new Error('SMS_API_KEY for Twilio is <account SID>:<auth token>');
  return { provider, apiKey, from: env.SMS_FROM || 'Amora', apiUrl: env.SMS_API_URL || null };
}

interface PaymentsConfig {
  /** MOLLIE_API_KEY (`test_…` or `live_…`): payments go to Mollie. Null: the sandbox, when it is on. */
  mollieApiKey: string | null;
  /** MOLLIE_API_URL: Mollie's API root, for a proxy (default https://api.mollie.com/v2/). */
  mollieApiUrl: string | null;
  /**
   * PAYMENTS_PUBLIC_URL: the public base URL (`https://…`, no path) Mollie calls our webhook on, e.g. a tunnel to a
   * development machine; null: each site's own address. Mollie cannot call localhost.
   */
  publicUrl: string | null;
  /**
   * Whether the sandbox provider is mounted (/sandbox, /sandbox/mollie/v2): only without MOLLIE_API_KEY, and in
   * production only when PAYMENTS_SANDBOX is set (a staging installation); outside production by default.
   */
  sandbox: boolean;
}

function httpUrlOf(name: string, value: string | undefined, pathAllowed: boolean): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new Error(`${name} must be an http(s) URL without credentials, query or fragment, got "${value}"`);
  }
  if (!pathAllowed && url.pathname !== '/') throw new Error(`${name} must be a base URL without a path, got "${value}"`);
  return pathAllowed ? url.href : url.origin;
}

function paymentsConfigOf(env: NodeJS.ProcessEnv, isProduction: boolean): PaymentsConfig {
  const mollieApiKey = env.MOLLIE_API_KEY || null;
  if (mollieApiKey && !/^(test|live)_\w{20,}$/.test(mollieApiKey)) {
    throw new Error('MOLLIE_API_KEY must be a Mollie API key (test_… or live_…, from the Mollie dashboard: Developers, API keys)');
  }
  return {
    mollieApiKey,
    mollieApiUrl: httpUrlOf('MOLLIE_API_URL', env.MOLLIE_API_URL, true),
    publicUrl: httpUrlOf('PAYMENTS_PUBLIC_URL', env.PAYMENTS_PUBLIC_URL, false),
    sandbox: !mollieApiKey && flag(env.PAYMENTS_SANDBOX, !isProduction),
  };
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function portOf(name: string, value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return port;
}

function metricsTokenOf(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 16) throw new Error('METRICS_TOKEN must have at least 16 characters');
  return value;
}

function cookieSecretOf(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 32) throw new Error('COOKIE_SECRET must have at least 32 characters');
  return value;
}

/** A header name (letters, digits and `-`), lower-cased as Node keeps request headers; null when unset. */
function geoCountryHeaderOf(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  const name = value.trim().toLowerCase();
  if (!/^[a-z0-9-]{1,64}$/.test(name)) throw new Error(`GEO_COUNTRY_HEADER must be a header name, got "${value}"`);
  return name;
}

/** A Redis key prefix: letters, digits and `:_.-`, at most 64. */
function redisPrefixOf(value: string | undefined): string {
  if (value === undefined || value === '') return 'amora:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(value)) {
    throw new Error(`REDIS_PREFIX may hold letters, digits and ":_.-" (at most 64), got "${value}"`);
  }
  return value;
}

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * S3_BUCKET puts the media in a bucket: AWS S3 of S3_REGION, or with S3_ENDPOINT any S3-compatible server (R2,
 * MinIO), addressed path-style. The keys go together (both or neither: without them the SDK's own chain, such as
 * an instance role). Another S3_ variable without S3_BUCKET is a mistake, not a folder.
 */
function mediaConfigOf(env: NodeJS.ProcessEnv): MediaStorageConfig {
  const bucket = env.S3_BUCKET?.trim() || null;
  if (!bucket) {
    const stray = S3_VARIABLES.find((name) => env[name]);
    if (stray) throw new Error(`${stray} is set but S3_BUCKET is not: set S3_BUCKET to keep the media in a bucket`);
    return { kind: 'local' };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`S3_BUCKET must be a bucket name, got "${bucket}"`);
  const endpoint = httpUrlOf('S3_ENDPOINT', env.S3_ENDPOINT, false);
  const region = env.S3_REGION?.trim() || (endpoint ? 'auto' : null);
  if (!region) throw new Error('S3_BUCKET on AWS S3 needs S3_REGION (e.g. eu-central-1); other services need S3_ENDPOINT');
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new Error("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither for the SDK's own credentials");
  }
  const credentials = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null;
  return { kind: 's3', bucket, region, endpoint, credentials };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const isProduction = env.NODE_ENV === 'production';
  const port = Number.parseInt(env.PORT ?? '3000', 10);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const linkPort = env.LINK_PORT ? portOf('LINK_PORT', env.LINK_PORT) : isProduction ? null : port || null;
  return {
    port,
    host: env.HOST || 'localhost',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    redisPrefix: redisPrefixOf(env.REDIS_PREFIX),
    smtpUrl: env.SMTP_URL || null,
    isProduction,
    logLevel: env.LOG_LEVEL || (isProduction ? 'info' : 'info'),
    seedDemo: flag(env.SEED_DEMO, !isProduction),
    trustProxy: flag(env.TRUST_PROXY, false),
    geoCountryHeader: geoCountryHeaderOf(env.GEO_COUNTRY_HEADER),
    apiRateLimit: Number.parseInt(env.API_RATE_LIMIT ?? '600', 10) || 600,
    signupRateLimit: Number.parseInt(env.SIGNUP_RATE_LIMIT ?? '10', 10) || 10,
    linkPort,
    apiDocs: flag(env.API_DOCS, !isProduction),
    cookieSecret: cookieSecretOf(env.COOKIE_SECRET),
    payments: paymentsConfigOf(env, isProduction),
    sms: smsConfigOf(env),
    mail: mailConfigOf(env, isProduction),
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    media: mediaConfigOf(env),
    webDist: resolve(env.WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
  };
}
