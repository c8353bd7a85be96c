import { resolve } from 'node:path';

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

function cookieSecretOf(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 32) throw new Error('COOKIE_SECRET must have at least 32 characters');
  return value;
}

/** A Redis key prefix: letters, digits and `:_.-`, at most 64. */
function redisPrefixOf(value: string | undefined): string {
  if (value === undefined || value === '') return 'amora:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(value)) {
    throw new Error(`REDIS_PREFIX may hold letters, digits and ":_.-" (at most 64), got "${value}"`);
  }
  return value;
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
    apiRateLimit: Number.parseInt(env.API_RATE_LIMIT ?? '600', 10) || 600,
    signupRateLimit: Number.parseInt(env.SIGNUP_RATE_LIMIT ?? '10', 10) || 10,
    linkPort,
    apiDocs: flag(env.API_DOCS, !isProduction),
    cookieSecret: cookieSecretOf(env.COOKIE_SECRET),
    webDist: resolve(env.WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
  };
}
