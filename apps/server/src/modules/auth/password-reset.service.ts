import { ACCOUNT_ERRORS as E } from '@amora/contracts';
import type { AppContext } from '../../context';
import { addressKey } from '../../lib/addresses';
import { hashPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import { dbOf, withTransaction } from '../../lib/transaction';
import { setPasswordHash } from '../accounts/accounts.service';
import { endAllSessions, startSession } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { consumeTokenEndingOthers, findAccount, findUserByEmail } from './auth.repository';
import { accountError, DAY, issueToken, limit, link, mail, type RequestInfo } from './auth.service';
import { loginLimits } from './login.service';

/** A forgotten password: the reset link by mail (capped per network, address and account) and the new password. */

/** Password reset requests a day: one network address in all, one address for one account, mails to one account. */
const RESET_PER_NETWORK = 10;
const RESET_PER_ADDRESS = 3;
const RESET_MAILS_PER_ACCOUNT = 10;
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
