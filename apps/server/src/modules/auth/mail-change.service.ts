import { ACCOUNT_ERRORS as E, type MailChangeRequestInput } from '@amora/contracts';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../lib/db-errors';
import { hashToken } from '../../lib/tokens';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { removeNotificationsDisabled, setConfirmedEmail } from '../accounts/accounts.service';
import { setProfileStatusOf } from '../profiles/profiles.service';
import { consumeTokenEndingOthers, findAccount, findUserByEmail, type UserRow } from './auth.repository';
import { accountError, checkMemberPassword, DAY, issueToken, limit, link, mail, type RequestInfo } from './auth.service';

/** Changing the account's email: a confirmation link to the new address (capped per mailbox), then the change. */

/**
 * The new address, confirmed by its link: the account counts as confirmed, a profile not yet active becomes active,
 * and mail stopped because the old address bounced goes to the new one.
 */
async function changeEmail(ctx: DbContext, userId: number, email: string, confirmedAt: Date): Promise<void> {
  await setConfirmedEmail(ctx, userId, email, confirmedAt);
  await removeNotificationsDisabled(ctx, userId, ['bounce']);
  await setProfileStatusOf(ctx, userId, 'active', 'disabled');
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
