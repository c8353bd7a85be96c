import { ACCOUNT_ERRORS as E, type LoginInput } from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { addressKey } from '../../lib/addresses';
import { type HttpError, tooManyRequests } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { dbOf } from '../../lib/transaction';
import { checkLoginAllowed } from '../moderation/moderation.service';
import { startSession } from '../sessions/sessions.service';
import { findAccount, findUserByEmail } from './auth.repository';
import {
  accountError,
  DAY,
  isWithinReactivation,
  LOGIN_ALLOWANCE,
  loginAccountKey,
  type RequestInfo,
  sendReactivationLink,
} from './auth.service';
import { trustedDevice } from './device-cookie';

/** Logging in (login.php) under its throttles: per address, account, network and device. */

/**
 * Login guesses (see docs/decisions.md, "Login throttling"): wrong passwords evaluated per window for one
 * account from one network address, for one account from everywhere, and from one network address for any
 * account. Places are taken before a password is checked and given back when it is right.
 */
const LOGIN_WINDOW_MS = 15 * 60_000;
const LOGIN_PER_ADDRESS = LOGIN_ALLOWANCE.address;
const LOGIN_PER_ACCOUNT = LOGIN_ALLOWANCE.account;
const LOGIN_PER_NETWORK = LOGIN_ALLOWANCE.network;
/** Wrong passwords per window from a browser with a device cookie for the account (counted instead of the others). */
const LOGIN_PER_DEVICE = LOGIN_ALLOWANCE.device;
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
  return loginAccountKey(info.site.id, email);
}

/**
 * The login throttles of one attempt: [key, places, answer when they are all taken]. A browser with a valid
 * device cookie for the account is counted only against its own allowance; strangers against their network
 * address's for the account, the account's from everywhere and their address's over all accounts.
 */
export function loginLimits(
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
  // A banned or suspended member is told so (403 `banned`, `suspended` with its end) and gets no session.
  await checkLoginAllowed(ctx, user.id);
  // The browser that proved the password gets (or renews) its device cookie for this account.
  return { user, session: await startSession(ctx, user.id, info.userAgent), deviceAccount: loginAccount(info, email) };
}
