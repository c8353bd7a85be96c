import {
  ACCOUNT_ERRORS as E,
  isLocale,
  localeFromTag,
  localizePath,
  REACTIVATION_DAYS,
  TRACKING_COOKIE,
  type User,
} from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError, tooManyRequests } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import { LANDER_COOKIE } from '../../lib/tracking';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { deleteUser, setLanguage } from '../accounts/accounts.service';
import { countUnread } from '../chat/chat.service';
import { countNewLikes } from '../likes/likes.service';
import type { MailKind } from '../mail/mail.service';
import { type Site, siteUrl } from '../sites/sites.service';
import { presentUser } from './auth.presenter';
import {
  consumeToken,
  deleteAccountRows,
  findAccount,
  insertToken,
  type ProfileRow,
  replaceToken,
  type TokenKind,
  type UserRow,
} from './auth.repository';
import { DEVICE_COOKIE } from './device-cookie';

/**
 * Accounts and what proves who a member is: signup, activation, login, password reset, email change, the
 * language, and the account's links (account_tokens). Sessions are the sessions module's; deleting and
 * reactivating an account the deletion module's, which uses the links and mails of this one.
 */

export type { ProfileRow, UserRow } from './auth.repository';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Links of which only the newest may be used: issuing or using one ends the others of that kind. */
const ONE_OPEN: ReadonlySet<TokenKind> = new Set(['reset', 'mail_change']);
const TOKEN_TTL: Record<TokenKind, number> = {
  activation: 7 * DAY,
  reset: 2 * HOUR,
  mail_change: DAY,
  reactivation: REACTIVATION_DAYS * DAY,
};

/** An error whose English text comes from the catalogue key the web app translates. */
export function accountError(
  status: number,
  code: string,
  key: string,
  extra: Record<string, unknown> = {},
  values?: Record<string, string | number>,
) {
  return new HttpError(status, code, translate('en', key, values), { message_key: key, ...extra });
}

export interface RequestInfo {
  site: Site;
  ip: string;
  language: string;
  userAgent: string;
  trackingCookie: string | undefined;
  /** The lander the visitor last landed on (lib/tracking.ts LANDER_COOKIE), stored with the member at signup. */
  landerCookie?: string;
  /** The visitor's country by the geo header (settings.service geoipCountry), where the route reads it. */
  geoipCountry?: string | null;
  /** The login device cookie the request carries (device-cookie.ts), checked by login. */
  deviceCookie?: string;
}

export function requestInfo(request: FastifyRequest, language?: string): RequestInfo {
  const cookieLanguage = request.cookies.i18n_redirected;
  return {
    site: request.site,
    ip: request.ip,
    language: language ?? (isLocale(cookieLanguage) ? cookieLanguage : (localeFromTag(request.site.domainLanguage) ?? 'en')),
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300),
    trackingCookie: request.cookies[TRACKING_COOKIE],
    landerCookie: request.cookies[LANDER_COOKIE],
    deviceCookie: request.cookies[DEVICE_COOKIE],
  };
}

export async function limit(ctx: AppContext, key: string, windowMs: number, max: number, errorKey: string = E.tooManyRequests) {
  const result = await ctx.limiter.hit(key, windowMs, max);
  if (!result.allowed) {
    const error = tooManyRequests(translate('en', errorKey), result.retryAfterSeconds);
    Object.assign(error.extra, { message_key: errorKey });
    throw error;
  }
}

/** Checks of a signed-in member's password (deletion, its discount, the email change) per account and hour. */
const PASSWORD_CHECKS_PER_HOUR = 5;

/**
 * Checks the password a signed-in member typed to confirm an account change. Every such check, in any form, takes
 * one of the account's PASSWORD_CHECKS_PER_HOUR in one atomic step before the hash is compared, so requests
 * arriving at once cannot guess more; beyond them the answer is 429 (auth.errors.tooManyRequests).
 */
export async function checkMemberPassword(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  await limit(ctx, `password-check:${user.id}`, HOUR, PASSWORD_CHECKS_PER_HOUR);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw accountError(403, 'wrong_password', E.wrongPassword, { field: 'password' });
  }
}

export async function issueToken(ctx: AppContext, userId: number, kind: TokenKind, payload: Record<string, string> = {}): Promise<string> {
  const token = newToken();
  const row = { userId, kind, tokenHash: hashToken(token), payload, expiresAt: new Date(ctx.now().getTime() + TOKEN_TTL[kind]) };
  if (ONE_OPEN.has(kind)) await withTransaction(ctx, (tx) => replaceToken(tx, row, ctx.now()));
  else await insertToken(dbOf(ctx), row);
  return token;
}

/** A link for a mail: on the site's configured domain (never the request's Host), in the member's language. */
export function link(ctx: AppContext, site: Site, language: string, path: string, token: string): string {
  return siteUrl(ctx.config, site, `${localizePath(path, isLocale(language) ? language : 'en')}?token=${encodeURIComponent(token)}`);
}

export function activationLink(ctx: AppContext, site: Site, token: string): string {
  return siteUrl(ctx.config, site, `/api/activate.php?token=${encodeURIComponent(token)}`);
}

export async function mail(
  ctx: AppContext,
  info: Pick<RequestInfo, 'site'>,
  kind: MailKind,
  user: UserRow,
  to: string,
  name: string,
  vars: Record<string, string | number> = {},
) {
  await ctx.mailer.queue({ kind, site: info.site, locale: user.language, to, userId: user.id, vars: { name, ...vars } });
}

/**
 * Sends the activation mail again, with a new link: the member's own "send it again" and support's, at most three
 * an hour. 409 when the address is confirmed already. `inUnit` runs in the unit of work that stores the link and mail.
 */
export async function sendActivationAgain(
  ctx: AppContext,
  site: Site,
  user: UserRow,
  name: string,
  inUnit?: () => Promise<void>,
): Promise<void> {
  if (user.status !== 'not_confirmed') throw new HttpError(409, 'already_confirmed', 'This email address is already confirmed');
  await limit(ctx, `activation-mail:${user.id}`, HOUR, 3);
  // The link and its mail are stored in one unit of work, with what the caller adds (the console's audit row).
  await withTransaction(ctx, async () => {
    const token = await issueToken(ctx, user.id, 'activation');
    await mail(ctx, { site }, 'activation', user, user.email, name, { link: activationLink(ctx, site, token) });
    await inUnit?.();
  });
}

/** Wrong passwords a login window allows (login.service.ts, loginLimits): per account from one address, per account, per device. */
export const LOGIN_ALLOWANCE = { address: 5, account: 20, network: 50, device: 5 } as const;

/** The throttled name of an account in the login throttles: the site and the address asked for (known or not). */
export function loginAccountKey(siteId: number, email: string): string {
  return `${siteId}:${email.toLowerCase()}`;
}

interface LoginWindow {
  key: string;
  count: number;
  retryAfterSeconds: number;
  max: number;
}

/** The login throttles' windows of one account: the account's own, per address and per device. */
async function loginWindowsOf(ctx: AppContext, siteId: number, email: string): Promise<LoginWindow[]> {
  const account = loginAccountKey(siteId, email);
  const [accountWide, devices] = await Promise.all([
    ctx.limiter.windows(`login:${account}`),
    ctx.limiter.windows(`login-device:${account}:`),
  ]);
  const windows: LoginWindow[] = devices.map((w) => ({ ...w, max: LOGIN_ALLOWANCE.device }));
  for (const w of accountWide) {
    if (w.key === `login:${account}`) windows.push({ ...w, max: LOGIN_ALLOWANCE.account });
    else if (w.key.startsWith(`login:${account}:`)) windows.push({ ...w, max: LOGIN_ALLOWANCE.address });
  }
  return windows;
}

/**
 * Where the login throttles stand for an account (support's view): locked when any of its windows (the account's,
 * one address's, one device's) has used up its wrong passwords; the fullest window's count and wait.
 */
export async function loginLockoutOf(ctx: AppContext, siteId: number, email: string) {
  const windows = await loginWindowsOf(ctx, siteId, email);
  let fullest: LoginWindow | null = null;
  for (const w of windows) if (fullest === null || w.count / w.max > fullest.count / fullest.max) fullest = w;
  const full = windows.filter((w) => w.count >= w.max);
  return {
    locked: full.length > 0,
    attempts: fullest?.count ?? 0,
    max: fullest?.max ?? LOGIN_ALLOWANCE.account,
    retry_after_seconds: Math.max(0, ...full.map((w) => w.retryAfterSeconds)),
  };
}

/** Ends every login throttle window of an account (the account's, each address's and each device's). */
export async function clearLoginLockout(ctx: AppContext, siteId: number, email: string): Promise<void> {
  const account = loginAccountKey(siteId, email);
  await Promise.all([
    ctx.limiter.reset(`login:${account}`),
    ctx.limiter.resetAll(`login:${account}:`),
    ctx.limiter.resetAll(`login-device:${account}:`),
  ]);
}

/** Whether a deleted account may still come back (within the 14 days). */
export function isWithinReactivation(ctx: AppContext, user: UserRow): boolean {
  return !!user.deletedAt && ctx.now().getTime() - user.deletedAt.getTime() < REACTIVATION_DAYS * DAY;
}

/** PUT user.php: the language of the member's mails and pages. */
export async function setMemberLanguage(ctx: AppContext, member: { siteId: number; userId: number }, language: string): Promise<void> {
  await setLanguage(ctx, member.userId, language);
  ctx.events.publish({ type: 'account.changed', siteId: member.siteId, userId: member.userId });
}

/** The account and profile of a member, by the account's id. */
export function findMember(ctx: AppContext, userId: number): Promise<{ user: UserRow; profile: ProfileRow } | undefined> {
  return findAccount(dbOf(ctx), userId);
}

/** Mails a member in their language (the mail module queues it). */
export async function mailMember(
  ctx: AppContext,
  site: Site,
  kind: MailKind,
  user: UserRow,
  name: string,
  vars: Record<string, string | number> = {},
): Promise<void> {
  await mail(ctx, { site }, kind, user, user.email, name, vars);
}

/**
 * The "account deleted" mail with a link that brings the account back within the 14 days, back to
 * `previousStatus` (confirmed or not). Sent when the member deletes the account, and again when they log in
 * to a deleted one with the right password.
 */
export async function sendReactivationLink(
  ctx: AppContext,
  site: Site,
  user: UserRow,
  name: string,
  previousStatus: string,
): Promise<void> {
  const token = await issueToken(ctx, user.id, 'reactivation', { status: previousStatus });
  await mail(ctx, { site }, 'deleted', user, user.email, name, {
    link: link(ctx, site, user.language, '/account-deleted', token),
    days: REACTIVATION_DAYS,
  });
}

/** Uses a reactivation link: its member and the status to restore, or undefined for a used, expired or unknown link. */
export async function useReactivationLink(
  ctx: AppContext,
  token: string,
): Promise<{ userId: number; status: 'confirmed' | 'not_confirmed' } | undefined> {
  const used = await consumeToken(dbOf(ctx), 'reactivation', hashToken(token), ctx.now());
  if (!used) return undefined;
  return { userId: used.userId, status: used.payload.status === 'confirmed' ? 'confirmed' : 'not_confirmed' };
}

/**
 * The `user` object of spec §3 for a member, with their profile's like_new and their unread messages counted:
 * every answer that carries the user.
 */
export async function presentMember(ctx: AppContext, site: Site, user: UserRow, profile: ProfileRow): Promise<User> {
  const newLikes = await countNewLikes(ctx, profile.id);
  const unreadMessages = await countUnread(ctx, profile);
  return presentUser(user, profile, site, { newLikes, unreadMessages });
}

/** The `user` object of the member with this account id as it is now (read again after a change), or null. */
export async function presentMemberById(ctx: AppContext, site: Site, userId: number): Promise<User | null> {
  const account = await findAccount(dbOf(ctx), userId);
  return account ? presentMember(ctx, site, account.user, account.profile) : null;
}

/** The account purge: the member's links, their signup message and, last, the account row. */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await deleteAccountRows(tx, member.userId);
    await deleteUser(ctx, member.userId);
  });
}
