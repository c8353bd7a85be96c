import {
  ACCOUNT_ERRORS as E,
  isLocale,
  type LoginInput,
  localeFromTag,
  localizePath,
  type MailChangeRequestInput,
  REACTIVATION_DAYS,
  type SignupInput,
  TRACKING_COOKIE,
  type User,
} from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { addressKey } from '../../lib/addresses';
import { isUniqueViolation } from '../../lib/db-errors';
import { HttpError, tooManyRequests } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import { parseTracking } from '../../lib/tracking';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { confirmUser, deleteUser, insertUser, setConfirmedEmail, setLanguage, setPasswordHash } from '../accounts/accounts.service';
import { countUnread, sendMessage } from '../chat/chat.service';
import { credit } from '../credits/credits.service';
import { countNewLikes } from '../likes/likes.service';
import type { MailKind } from '../mail/mail.service';
import { insertProfile, setProfileStatusOf } from '../profiles/profiles.service';
import { endAllSessions, startSession } from '../sessions/sessions.service';
import { selectedCountry } from '../settings/settings.service';
import { type Site, siteUrl } from '../sites/sites.service';
import { presentUser } from './auth.presenter';
import {
  consumeToken,
  consumeTokenEndingOthers,
  deleteAccountRows,
  findAccount,
  findProfileIdOnSite,
  findToken,
  findUndeliveredSignupMessages,
  findUserByEmail,
  insertSignupMessage,
  insertToken,
  markSignupMessageDelivered,
  type ProfileRow,
  replaceToken,
  type TokenKind,
  type UserRow,
} from './auth.repository';
import { DEVICE_COOKIE, trustedDevice } from './device-cookie';

/**
 * Accounts and what proves who a member is: signup, activation, login, password reset, email change, the
 * language, and the account's links (account_tokens). Sessions are the sessions module's; deleting and
 * reactivating an account the deletion module's, which uses the links and mails of this one.
 */

export type { ProfileRow, UserRow } from './auth.repository';

/** A new account and its profile (a unique index refuses a second account with the address on the site). */
async function insertAccount(
  ctx: DbContext,
  user: Parameters<typeof insertUser>[1],
  profile: Omit<Parameters<typeof insertProfile>[1], 'userId'>,
): Promise<{ user: UserRow; profile: ProfileRow }> {
  const created = await insertUser(ctx, user);
  return { user: created, profile: await insertProfile(ctx, { ...profile, userId: created.id }) };
}

/** The address is confirmed: the account is confirmed and its profile active. */
async function confirmAccount(ctx: DbContext, userId: number, now: Date): Promise<void> {
  await confirmUser(ctx, userId, now);
  await setProfileStatusOf(ctx, userId, 'active');
}

/** The new address, confirmed by its link: the account counts as confirmed, a profile not yet active becomes active. */
async function changeEmail(ctx: DbContext, userId: number, email: string, confirmedAt: Date): Promise<void> {
  await setConfirmedEmail(ctx, userId, email, confirmedAt);
  await setProfileStatusOf(ctx, userId, 'active', 'disabled');
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Login guesses (see docs/decisions.md, "Login throttling"): wrong passwords evaluated per window for one
 * account from one network address, for one account from everywhere, and from one network address for any
 * account. Places are taken before a password is checked and given back when it is right.
 */
const LOGIN_WINDOW_MS = 15 * 60_000;
const LOGIN_PER_ADDRESS = 5;
const LOGIN_PER_ACCOUNT = 20;
const LOGIN_PER_NETWORK = 50;
/** Wrong passwords per window from a browser with a device cookie for the account (counted instead of the others). */
const LOGIN_PER_DEVICE = 5;
/** Password reset requests a day: one network address in all, one address for one account, mails to one account. */
const RESET_PER_NETWORK = 10;
const RESET_PER_ADDRESS = 3;
const RESET_MAILS_PER_ACCOUNT = 10;
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
    deviceCookie: request.cookies[DEVICE_COOKIE],
  };
}

async function limit(ctx: AppContext, key: string, windowMs: number, max: number, errorKey: string = E.tooManyRequests) {
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

async function issueToken(ctx: AppContext, userId: number, kind: TokenKind, payload: Record<string, string> = {}): Promise<string> {
  const token = newToken();
  const row = { userId, kind, tokenHash: hashToken(token), payload, expiresAt: new Date(ctx.now().getTime() + TOKEN_TTL[kind]) };
  if (ONE_OPEN.has(kind)) await withTransaction(ctx, (tx) => replaceToken(tx, row, ctx.now()));
  else await insertToken(dbOf(ctx), row);
  return token;
}

/** A link for a mail: on the site's configured domain (never the request's Host), in the member's language. */
function link(ctx: AppContext, site: Site, language: string, path: string, token: string): string {
  return siteUrl(ctx.config, site, `${localizePath(path, isLocale(language) ? language : 'en')}?token=${encodeURIComponent(token)}`);
}

function activationLink(ctx: AppContext, site: Site, token: string): string {
  return siteUrl(ctx.config, site, `/api/activate.php?token=${encodeURIComponent(token)}`);
}

async function mail(
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

/** Whether a deleted account may still come back (within the 14 days). */
export function isWithinReactivation(ctx: AppContext, user: UserRow): boolean {
  return !!user.deletedAt && ctx.now().getTime() - user.deletedAt.getTime() < REACTIVATION_DAYS * DAY;
}

export async function signup(
  ctx: AppContext,
  info: RequestInfo,
  input: SignupInput & { email: string; name: string; date_of_birth: string },
) {
  const { site } = info;
  const tracking = parseTracking(info.trackingCookie);
  const hasTrafficsource = Object.keys(tracking).length > 0;
  if (site.signups !== 'all' && !(site.signups === 'with_trafficsource' && hasTrafficsource)) {
    throw accountError(403, 'signups_closed', E.signupsClosed);
  }
  await limit(ctx, `signup-ip:${info.ip}`, HOUR, ctx.config.signupRateLimit);
  const existing = await findUserByEmail(dbOf(ctx), site.id, input.email);
  if (existing) {
    if (existing.status === 'deleted') throw accountError(409, 'account_being_removed', E.accountBeingRemoved, { field: 'email' });
    throw accountError(409, 'email_taken', E.emailTaken, { field: 'email' });
  }
  const language = input.language ?? info.language;
  const passwordHash = await hashPassword(input.password);
  // Where the visitor is, if the site serves that country; /complete-signup then asks where they live.
  const country = selectedCountry(site, info.geoipCountry ?? null);

  const user = await withTransaction(ctx, async (tx) => {
    const created = await insertAccount(
      ctx,
      {
        siteId: site.id,
        email: input.email,
        passwordHash,
        status: 'not_confirmed',
        language,
        dateOfBirth: input.date_of_birth,
        tracking,
        trafficsource: tracking.network ?? null,
        signupDate: ctx.now(),
      },
      { siteId: site.id, name: input.name, country, status: 'disabled', birthDate: input.date_of_birth },
    );
    if (site.signupCredits > 0) {
      await credit(ctx, {
        userId: created.user.id,
        siteId: site.id,
        amount: site.signupCredits,
        reason: 'signup',
        idempotencyKey: `signup:${created.user.id}`,
      });
    }
    if (input.signup_message && input.profile_id) {
      const target = await findProfileIdOnSite(tx, input.profile_id, site.id);
      if (target && target !== created.profile.id) {
        await insertSignupMessage(tx, { userId: created.user.id, toProfileId: target, text: input.signup_message });
      }
    }
    return created.user;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error, 'users_site_email_idx')) {
      throw accountError(409, 'email_taken', E.emailTaken, { field: 'email' });
    }
    throw error;
  });

  const token = await issueToken(ctx, user.id, 'activation');
  await mail(ctx, info, 'activation', user, user.email, input.name, { link: activationLink(ctx, site, token) });
  return { user, session: await startSession(ctx, user.id, info.userAgent) };
}

function loginBlocked(retryAfterSeconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return accountError(
    429,
    'login_blocked',
    E.loginBlocked,
    { minutes, retry_after_seconds: retryAfterSeconds },
    { minutes, count: minutes },
  );
}

/** The throttled name of an account: the site and the address asked for (known or not). */
function loginAccount(info: RequestInfo, email: string): string {
  return `${info.site.id}:${email}`;
}

/**
 * The login throttles of one attempt: [key, places, answer when they are all taken]. A browser with a valid
 * device cookie for the account is counted only against its own allowance; strangers against their network
 * address's for the account, the account's from everywhere and their address's over all accounts.
 */
function loginLimits(
  info: RequestInfo,
  email: string,
  device: string | null = null,
): [string, number, (retryAfterSeconds: number) => HttpError][] {
  const network = addressKey(info.ip);
  const account = loginAccount(info, email);
  if (device) return [[`login-device:${account}:${device}`, LOGIN_PER_DEVICE, loginBlocked]];
  const busy = (retryAfterSeconds: number) => {
    const error = tooManyRequests(translate('en', E.tooManyRequests), retryAfterSeconds);
    Object.assign(error.extra, { message_key: E.tooManyRequests });
    return error;
  };
  return [
    [`login:${account}:${network}`, LOGIN_PER_ADDRESS, loginBlocked],
    [`login:${account}`, LOGIN_PER_ACCOUNT, loginBlocked],
    [`login-net:${network}`, LOGIN_PER_NETWORK, busy],
  ];
}

/**
 * Logs in. Each attempt first takes a place in every throttle (one atomic step each, so of any number of
 * guesses arriving at once no more are evaluated than there are places); a wrong password keeps its places
 * for the window, a right one gives them back. An address without an account is throttled the same way and
 * costs the same hashing time, so the answers never tell who is a member.
 */
export async function login(ctx: AppContext, info: RequestInfo, input: LoginInput & { email: string }) {
  const email = input.email.toLowerCase();
  const device = trustedDevice(info.deviceCookie, ctx.config.cookieSecret, loginAccount(info, email));
  const limits = loginLimits(info, email, device);
  const taken: string[] = [];
  const counts: { count: number; max: number; retryAfterSeconds: number }[] = [];
  for (const [key, max, refusal] of limits) {
    const place = await ctx.limiter.take(key, LOGIN_WINDOW_MS, max);
    if (!place.allowed) {
      await Promise.all(taken.map((k) => ctx.limiter.release(k)));
      throw refusal(place.retryAfterSeconds);
    }
    taken.push(key);
    counts.push({ count: place.count, max, retryAfterSeconds: place.retryAfterSeconds });
  }
  const user = await findUserByEmail(dbOf(ctx), info.site.id, email);
  if (!user || !(await verifyPassword(user.passwordHash, input.password))) {
    if (!user) await verifyPassword(null, input.password);
    // This guess took the last place of the device's, the address's or the account's allowance: say so now.
    const used = counts.slice(0, 2).find((c) => c.count >= c.max);
    if (used) throw loginBlocked(used.retryAfterSeconds);
    throw accountError(401, 'login_failed', E.loginFailed);
  }
  await Promise.all(taken.map((k) => ctx.limiter.release(k)));
  if (user.status === 'deleted') {
    if (isWithinReactivation(ctx, user)) {
      // The right password proves it is the owner: send a fresh reactivation link, at most three a day.
      const sent = await ctx.limiter.hit(`reactivation-mail:${user.id}`, DAY, 3);
      if (sent.allowed) {
        const account = await findAccount(dbOf(ctx), user.id);
        await sendReactivationLink(ctx, info.site, user, account?.profile.name ?? '', user.confirmedAt ? 'confirmed' : 'not_confirmed');
      }
    }
    throw accountError(409, 'account_being_removed', E.accountBeingRemoved);
  }
  // The browser that proved the password gets (or renews) its device cookie for this account.
  return { user, session: await startSession(ctx, user.id, info.userAgent), deviceAccount: loginAccount(info, email) };
}

/** Activation link: confirms the address and enables the profile. Opening it twice is fine. */
export async function activate(ctx: AppContext, token: string): Promise<{ ok: boolean; language: string }> {
  const tokenHash = hashToken(token);
  const used = await consumeToken(dbOf(ctx), 'activation', tokenHash, ctx.now());
  if (!used) {
    const known = await findToken(dbOf(ctx), 'activation', tokenHash);
    if (known?.usedAt) {
      const account = await findAccount(dbOf(ctx), known.userId);
      if (account?.user.status === 'confirmed') return { ok: true, language: account.user.language };
    }
    return { ok: false, language: 'en' };
  }
  const account = await findAccount(dbOf(ctx), used.userId);
  if (!account || account.user.status === 'deleted') return { ok: false, language: 'en' };
  await withTransaction(ctx, () => confirmAccount(ctx, used.userId, ctx.now()));
  ctx.events.publish({ type: 'account.changed', siteId: account.user.siteId, userId: used.userId });
  await deliverSignupMessages(ctx, used.userId);
  return { ok: true, language: account.user.language };
}

/**
 * The message written while signing up from a profile becomes the first message of the conversation with that
 * profile once the account is activated, sent (and paid from the signup credits) as any message, with the client
 * id `signup-<id>`, so it is sent once whatever happens twice. One the chat refuses (the profile went away or is
 * blocked, not enough credits, too long for the site) is not sent and does not stop the activation.
 */
async function deliverSignupMessages(ctx: AppContext, userId: number): Promise<void> {
  const pending = await findUndeliveredSignupMessages(dbOf(ctx), userId);
  if (pending.length === 0) return;
  const account = await findAccount(dbOf(ctx), userId);
  if (!account) return;
  for (const message of pending) {
    try {
      await sendMessage(ctx, account, { profile: message.toProfileId, body: message.text, clientId: `signup-${message.id}` });
      await markSignupMessageDelivered(dbOf(ctx), message.id, ctx.now());
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
    }
  }
}

export async function resendActivation(ctx: AppContext, info: RequestInfo, user: UserRow, name: string): Promise<void> {
  if (user.status !== 'not_confirmed') throw new HttpError(409, 'already_confirmed', 'This email address is already confirmed');
  await limit(ctx, `activation-mail:${user.id}`, HOUR, 3);
  const token = await issueToken(ctx, user.id, 'activation');
  await mail(ctx, info, 'activation', user, user.email, name, { link: activationLink(ctx, info.site, token) });
}

/**
 * Always the same answer, whether or not the address has an account (no one learns who is a member): the
 * request path only counts the request (by network address, and by address and network address, so a
 * stranger cannot use up the owner's requests) and answers; looking the account up, making the link and the
 * mail happen after the answer, so known and unknown addresses get the same answer in the same time.
 */
export async function requestPasswordReset(ctx: AppContext, info: RequestInfo, email: string): Promise<void> {
  const network = addressKey(info.ip);
  await limit(ctx, `reset-ip:${network}`, DAY, RESET_PER_NETWORK, E.resetTooMany);
  await limit(ctx, `reset-email:${info.site.id}:${email.toLowerCase()}:${network}`, DAY, RESET_PER_ADDRESS, E.resetTooMany);
  const { site } = info;
  ctx.mailer.later(() => sendResetLink(ctx, site, email));
}

/**
 * Mails a reset link to the account of that address, if there is one: at most ten a day per account. Past
 * that no link is made, so no one can end the link the owner already has (a new link ends the older ones).
 */
async function sendResetLink(ctx: AppContext, site: Site, email: string): Promise<void> {
  const user = await findUserByEmail(dbOf(ctx), site.id, email);
  if (!user || user.status === 'deleted') return;
  const sent = await ctx.limiter.take(`reset-mail:${user.id}`, DAY, RESET_MAILS_PER_ACCOUNT);
  if (!sent.allowed) return;
  const account = await findAccount(dbOf(ctx), user.id);
  const token = await issueToken(ctx, user.id, 'reset');
  await mail(ctx, { site }, 'reset', user, user.email, account?.profile.name ?? '', {
    link: link(ctx, site, user.language, '/reset-password/do', token),
    hours: 2,
  });
}

/** New password from a reset link: single use, ends every session, starts a new one here. */
export async function resetPassword(ctx: AppContext, info: RequestInfo, token: string, password: string) {
  const used = await withTransaction(ctx, (tx) => consumeTokenEndingOthers(tx, 'reset', hashToken(token), ctx.now()));
  if (!used) throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  const account = await findAccount(dbOf(ctx), used.userId);
  if (!account || account.user.status === 'deleted' || account.user.siteId !== info.site.id) {
    throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  }
  const passwordHash = await hashPassword(password);
  await withTransaction(ctx, async () => {
    await setPasswordHash(ctx, used.userId, passwordHash);
    await endAllSessions(ctx, { siteId: account.user.siteId, userId: used.userId });
  });
  // The owner proved the address is theirs: their wrong guesses, here and for the account, are forgiven.
  const [fromHere, forAccount] = loginLimits(info, account.user.email.toLowerCase());
  await Promise.all([ctx.limiter.reset(fromHere[0]), ctx.limiter.reset(forAccount[0])]);
  await mail(ctx, info, 'password_changed', account.user, account.user.email, account.profile.name);
  return { user: account.user, session: await startSession(ctx, used.userId, info.userAgent) };
}

/** Email-change confirmations one address receives in a day, from all accounts of all sites together. */
export const MAIL_CHANGE_MAILS_PER_ADDRESS = 3;

/** Domains whose mailboxes ignore dots in the local part, and which deliver to each other's names. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as the per-address cap counts it: lower-cased, without a `+tag` in the local
 * part (`victim+1@` reaches `victim@`), and at Gmail without dots and with googlemail.com as gmail.com.
 */
function mailboxKey(email: string): string {
  const address = email.toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '') || local;
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * Asks to move the account to another address: a confirmation link goes to the new one, a notice to the old one.
 * Only a member who confirmed their own address may ask (an unconfirmed account proves nobody, and could be one
 * of many made to send mail to a stranger), five asks a day per account, and one address receives at most
 * MAIL_CHANGE_MAILS_PER_ADDRESS confirmations a day whoever asks, counted per mailbox (mailboxKey: `victim+1@` is
 * `victim@`): the place is taken before the mail is made, in one atomic step, so requests arriving at once from
 * many accounts send no more.
 */
export async function requestMailChange(
  ctx: AppContext,
  info: RequestInfo,
  user: UserRow,
  name: string,
  input: MailChangeRequestInput & { new_email: string },
) {
  if (user.status !== 'confirmed') throw accountError(403, 'email_unconfirmed', E.mailChangeUnconfirmed);
  await limit(ctx, `mail-change:${user.id}`, DAY, 5);
  await checkMemberPassword(ctx, user, input.password);
  if (input.new_email === user.email.toLowerCase()) throw accountError(400, 'same_email', E.sameEmail, { field: 'new_email' });
  if (await findUserByEmail(dbOf(ctx), info.site.id, input.new_email)) {
    throw accountError(409, 'email_taken', E.emailTaken, { field: 'new_email' });
  }
  const place = await ctx.limiter.take(`mail-change-to:${mailboxKey(input.new_email)}`, DAY, MAIL_CHANGE_MAILS_PER_ADDRESS);
  if (!place.allowed) {
    throw accountError(429, 'rate_limited', E.mailChangeAddressLimit, {
      field: 'new_email',
      retry_after_seconds: place.retryAfterSeconds,
    });
  }
  const token = await issueToken(ctx, user.id, 'mail_change', { new_email: input.new_email });
  await mail(ctx, info, 'mail_change', user, input.new_email, name, {
    link: link(ctx, info.site, user.language, '/mail-change/do', token),
    newEmail: input.new_email,
  });
  await mail(ctx, info, 'mail_change_notice', user, user.email, name, { newEmail: input.new_email });
}

export async function confirmMailChange(ctx: AppContext, info: RequestInfo, token: string): Promise<string> {
  const used = await withTransaction(ctx, (tx) => consumeTokenEndingOthers(tx, 'mail_change', hashToken(token), ctx.now()));
  const newEmail = used?.payload.new_email;
  if (!used || !newEmail) throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  const account = await findAccount(dbOf(ctx), used.userId);
  if (!account || account.user.status === 'deleted' || account.user.siteId !== info.site.id) {
    throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  }
  if (await findUserByEmail(dbOf(ctx), info.site.id, newEmail))
    throw accountError(409, 'email_taken', E.emailTaken, { field: 'new_email' });
  // Opening the link proves the new address is theirs, so it also counts as confirmed.
  await withTransaction(ctx, () => changeEmail(ctx, used.userId, newEmail, account.user.confirmedAt ?? ctx.now())).catch(
    (error: unknown) => {
      // Another account took the address between the check above and this update (the unique index decides).
      if (isUniqueViolation(error, 'users_site_email_idx')) {
        throw accountError(409, 'email_taken', E.emailTaken, { field: 'new_email' });
      }
      throw error;
    },
  );
  ctx.events.publish({ type: 'account.changed', siteId: account.user.siteId, userId: used.userId });
  return newEmail;
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
