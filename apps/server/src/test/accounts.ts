import { randomBytes } from 'node:crypto';
import { outboxEmails, profiles, sites, users } from '@amora/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { CLIENT, type TestApp } from './harness';

/** Test helpers for the account routes: signup, login, sessions and the dev outbox. */

export const DEMO = { email: 'demo@amora.example', password: 'amora-demo-2026', name: 'Sam' } as const;
export const DEMO_HERZ = { email: 'demo@herzklopfen.example', password: 'amora-demo-2026', name: 'Alex' } as const;
export const AMORA = 'localhost:3000';
export const HERZ = 'herzklopfen.localhost:3000';
export const PASSWORD = 'correct-horse-battery';

/** An address no other test uses. */
export function uniqueEmail(prefix = 'member'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/** A valid date of birth: `years` years ago (UTC), minus a few days so the birthday has passed. */
export function birthDate(years: number, extraDays = -10): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + extraDays));
  return date.toISOString().slice(0, 10);
}

export function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: uniqueEmail(),
    name: 'Robin',
    password: PASSWORD,
    date_of_birth: '1992-03-04',
    terms: true,
    ...overrides,
  };
}

export interface CallOptions {
  host?: string;
  ip?: string;
  cookie?: string;
  headers?: Record<string, string>;
  client?: boolean;
}

/** One API call, with the client header (as the web app sends it on every call) unless `client: false`. */
export function call(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { host: options.host ?? AMORA, ...(options.headers ?? {}) };
  if (options.client !== false) Object.assign(headers, CLIENT);
  if (options.cookie) headers.cookie = options.cookie;
  return t.app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? '10.250.0.1',
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  }) as Promise<LightMyRequestResponse>;
}

/** `auth.session=<token>` of a response, for the next request's Cookie header. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'auth.session');
  if (!cookie?.value) throw new Error(`no session cookie in the response (${res.statusCode} ${res.body})`);
  return `auth.session=${cookie.value}`;
}

export async function signup(t: TestApp, body: Record<string, unknown> = {}, options: CallOptions = {}) {
  const payload = signupBody(body);
  const res = await call(t, 'POST', '/api/signup.php', payload, options);
  if (res.statusCode !== 200) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return {
    res,
    cookie: sessionCookie(res),
    user: res.json().user as { id: number; email: string; status: string; profile: { id: number; status: string } },
    email: String(payload.email).toLowerCase(),
    password: String(payload.password),
  };
}

export function login(t: TestApp, email: string, password: string, options: CallOptions = {}) {
  return call(t, 'POST', '/api/user.php', { email, password }, options);
}

/** The `user` the session cookie stands for on that host, or null. */
export async function currentUser(t: TestApp, cookie: string, host = AMORA) {
  const res = await call(t, 'GET', '/api/user.php', undefined, { cookie, host });
  if (res.statusCode !== 200) throw new Error(`GET user.php: ${res.statusCode} ${res.body}`);
  return res.json().user as { id: number; email: string; status: string; language: string } | null;
}

/** Outbox mails to an address, newest first. */
export async function mailsTo(t: TestApp, address: string, kind?: string) {
  return t.ctx.db
    .select()
    .from(outboxEmails)
    .where(and(eq(sql`lower(${outboxEmails.toAddress})`, address.toLowerCase()), kind ? eq(outboxEmails.kind, kind) : undefined))
    .orderBy(desc(outboxEmails.id));
}

/** The link's token in a mail's text. */
export function tokenOf(mail: { text: string }): string {
  const match = /[?&]token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match) throw new Error(`no token link in the mail:\n${mail.text}`);
  return decodeURIComponent(match[1]);
}

/** The token of the newest mail of that kind to that address. */
export async function latestToken(t: TestApp, address: string, kind: string): Promise<string> {
  const [mail] = await mailsTo(t, address, kind);
  if (!mail) throw new Error(`no ${kind} mail to ${address}`);
  return tokenOf(mail);
}

export async function userRow(t: TestApp, id: number) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function profileOf(t: TestApp, userId: number) {
  const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, userId));
  return row;
}

export async function siteByDomain(t: TestApp, domain: string) {
  const [row] = await t.ctx.db.select().from(sites).where(eq(sites.domain, domain));
  return row;
}
