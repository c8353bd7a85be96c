import { type DeleteAccountInput, ACCOUNT_ERRORS as E, REACTIVATION_DAYS } from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/errors';
import { newToken } from '../../lib/tokens';
import { dbOf, withTransaction } from '../../lib/transaction';
import { markUserDeleted, restoreUser } from '../accounts/accounts.service';
import {
  accountError,
  checkMemberPassword,
  findMember,
  isWithinReactivation,
  mailMember,
  purgeMember as purgeAccount,
  type RequestInfo,
  sendReactivationLink,
  type UserRow,
  useReactivationLink,
} from '../auth/auth.service';
import { purgeMember as purgeChat } from '../chat/chat.service';
import { purgeMember as purgeDataExports } from '../data-export/data-export.service';
import { purgeMember as purgeDirectDebit } from '../directdebit/directdebit.service';
import { createMemberCode, isDiscountUsed, purgeMember as purgeDiscounts } from '../discounts/discounts.service';
import { purgeMember as purgeDiscovery } from '../discovery/discovery.service';
import { purgeMember as purgeLikes } from '../likes/likes.service';
import { purgeMember as purgeMail } from '../mail/mail.service';
import { purgeMember as purgePayments } from '../payments/payments.service';
import { purgeMember as purgePhotos, removeMemberMedia } from '../photos/photos.service';
import { purgeMember as purgeProfile, setProfileStatusOf } from '../profiles/profiles.service';
import { endAllSessions, purgeMember as purgeSessions, startSession } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { accountsDeletedBefore, findRetentionCode, lockMember } from './deletion.repository';

/**
 * Deleting an account (spec §3): the discount offered before, the deletion, reactivation within 14 days, and the
 * purge after them, which asks every module to remove what it keeps of the member.
 */

const DAY_MS = 86_400_000;

/**
 * The site's delete_discount, offered to a member who is deleting their account: they have filled in the deletion
 * form with their password, which is checked as the deletion checks it, so the code cannot be had by just asking.
 */
export async function offerDeleteDiscount(ctx: AppContext, user: UserRow, site: Site, password: string) {
  await checkMemberPassword(ctx, user, password);
  if (site.deleteDiscount <= 0) throw new HttpError(404, 'not_found', 'No discount is offered on this site');
  const now = ctx.now();
  // Locking the member's row serialises calls made at once (a double click), so they all get the one code.
  const row = await withTransaction(ctx, async (tx) => {
    await lockMember(tx, user.id);
    // Once per member, ever: the code made the first time is answered again while it can still be used; once it is
    // used for a purchase or has expired, there is no other (a code for checkout like any other, discounts module).
    const existing = await findRetentionCode(tx, user.id);
    if (existing) {
      const open = existing.status === 'active' && existing.expiresAt.getTime() > now.getTime();
      return open && !(await isDiscountUsed(ctx, existing.id, user.id)) ? existing : null;
    }
    return createMemberCode(ctx, {
      code: `STAY${newToken()
        .replace(/[^A-Z0-9]/gi, '')
        .slice(0, 8)
        .toUpperCase()}`,
      siteId: site.id,
      userId: user.id,
      valuePercentage: site.deleteDiscount,
      source: 'delete_retention',
      status: 'active',
      expiresAt: new Date(now.getTime() + 30 * DAY_MS),
    });
  });
  if (!row) throw new HttpError(404, 'not_found', 'The discount of this site has been offered to you already');
  return { code: row.code, value_percentage: row.valuePercentage, expires: row.expiresAt.toISOString() };
}

/** DELETE user.php: with the right password, the account is deleted, every session ends and the reactivation link goes out. */
export async function deleteAccount(ctx: AppContext, info: RequestInfo, user: UserRow, name: string, input: DeleteAccountInput) {
  await checkMemberPassword(ctx, user, input.password);
  await removeAccount(ctx, info.site, user, name, { reason: input.reason, reasonText: input.reason_text ?? null });
}

/**
 * Support deletes an account on the member's request, as their own deletion does (without their password): the
 * reason `support`, the same 14 days to come back by the mailed link. `inUnit` runs in the deletion's unit of
 * work (the console's audit row).
 */
export async function deleteAccountForMember(
  ctx: AppContext,
  site: Site,
  user: UserRow,
  name: string,
  reasonText: string,
  inUnit: () => Promise<void>,
): Promise<void> {
  await removeAccount(ctx, site, user, name, { reason: 'support', reasonText }, inUnit);
}

async function removeAccount(
  ctx: AppContext,
  site: Site,
  user: UserRow,
  name: string,
  why: { reason: string; reasonText: string | null },
  inUnit?: () => Promise<void>,
): Promise<void> {
  await withTransaction(ctx, async () => {
    // The account is deleted (with the reason given) and its profile leaves every list at once.
    await markUserDeleted(ctx, user.id, { deletedAt: ctx.now(), ...why });
    await setProfileStatusOf(ctx, user.id, 'deleted');
    await endAllSessions(ctx, { siteId: user.siteId, userId: user.id });
    await inUnit?.();
  });
  await sendReactivationLink(ctx, site, user, name, user.status);
}

/** Reactivation link within 14 days: everything comes back as it was. */
export async function reactivate(ctx: AppContext, info: RequestInfo, token: string) {
  const used = await useReactivationLink(ctx, token);
  if (!used) throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  const account = await findMember(ctx, used.userId);
  if (!account || account.user.siteId !== info.site.id || account.user.status !== 'deleted' || !isWithinReactivation(ctx, account.user)) {
    throw accountError(400, 'link_invalid', E.linkInvalid, { field: 'token' });
  }
  // The account comes back with the status it had; its profile is active again once the address is confirmed.
  await withTransaction(ctx, async () => {
    await restoreUser(ctx, used.userId, used.status);
    await setProfileStatusOf(ctx, used.userId, used.status === 'confirmed' ? 'active' : 'disabled');
  });
  await mailMember(ctx, info.site, 'reactivated', account.user, account.profile.name);
  return { user: { ...account.user, status: used.status }, session: await startSession(ctx, used.userId, info.userAgent) };
}

/**
 * Removes for good the accounts deleted more than 14 days ago. Each module removes what it keeps of the member,
 * in one transaction per account: mails, photos, likes, conversations with their messages, suggestions and
 * swipes, the profile with its blocks, sessions, discount codes, direct-debit mandates, SMS codes and the SMS sent, data exports, and last the account with its links. The photo
 * and data export files go after the commit. Ledger rows and payment orders (money records) stay, without the user. Returns how
 * many accounts were removed.
 */
export async function purgeDeletedAccounts(ctx: AppContext): Promise<number> {
  const due = await accountsDeletedBefore(dbOf(ctx), new Date(ctx.now().getTime() - REACTIVATION_DAYS * DAY_MS));
  for (const member of due) await purgeAccountNow(ctx, member);
  return due.length;
}

/**
 * Removes one account for good, in one unit of work (see purgeDeletedAccounts); the hourly purge after the 14 days,
 * or at once for an erasure request (GDPR art. 17) an admin carries out in the console. `inUnit` runs in that unit
 * of work (the console's audit row).
 */
export async function purgeAccountNow(
  ctx: AppContext,
  member: { userId: number; profileId: number | null },
  inUnit?: () => Promise<void>,
): Promise<void> {
  await withTransaction(ctx, async () => {
    await purgeMail(ctx, member);
    await purgePhotos(ctx, member);
    await purgeLikes(ctx, member);
    await purgeChat(ctx, member);
    await purgeDiscovery(ctx, member);
    await purgeProfile(ctx, member);
    await purgeSessions(ctx, member);
    await purgePayments(ctx, member);
    await purgeDirectDebit(ctx, member);
    await purgeDiscounts(ctx, member);
    await purgeDataExports(ctx, member);
    await purgeAccount(ctx, member);
    await inUnit?.();
  });
  await removeMemberMedia(ctx, member);
}
