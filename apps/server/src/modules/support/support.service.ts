import {
  SUPPORT_ERRORS as E,
  type MemberDetail,
  type MemberHit,
  type MemberLedger,
  REACTIVATION_DAYS,
  SUPPORT_REFUND_LIMIT_MINOR,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { dbOf, withTransaction } from '../../lib/transaction';
import { clearLoginLockout, loginLockoutOf, sendActivationAgain } from '../auth/auth.service';
import { credit, spend } from '../credits/credits.service';
import { deleteAccountForMember, purgeAccountNow } from '../deletion/deletion.service';
import { unblockDirectDebitFor } from '../directdebit/directdebit.service';
import { orderWithPayment, refundOrder } from '../payments/payments.service';
import { readPhotoForStaff } from '../photos/photos.service';
import { type Actor, audit, type StaffRow } from '../staff/staff.service';
import * as rows from './support.repository';

/**
 * Member support (issue 27): staff find a member on any site and see what the member sees, read only (support,
 * moderators, admins); support and admins act for them. Each action goes through the module that owns what it
 * changes, and writes its audit row (before and after) in the same unit of work; refunds above
 * SUPPORT_REFUND_LIMIT_MINOR per order are an admin's. See docs/decisions.md, "Member support".
 */

const MEMBERS_PER_PAGE = 25;
const LEDGER_PER_PAGE = 50;
const ORDERS_SHOWN = 100;
const DAY_MS = 86_400_000;

const iso = (date: Date | null) => date?.toISOString() ?? null;

export async function findMembers(ctx: AppContext, q: string, page: number) {
  const { rows: found, total } = await rows.searchMembers(dbOf(ctx), q, page, MEMBERS_PER_PAGE);
  const members: MemberHit[] = found.map((row) => ({
    user_id: row.userId,
    profile_id: row.profileId,
    email: row.email,
    name: row.name ?? '',
    status: row.status,
    site: { id: row.siteId, name: row.siteName, domain: row.siteDomain },
    signup_date: row.signupDate.toISOString(),
  }));
  return { members, page, pages: Math.max(1, Math.ceil(total / MEMBERS_PER_PAGE)), total };
}

async function accountOf(ctx: AppContext, userId: number) {
  const found = await rows.findMemberAccount(dbOf(ctx), userId);
  if (!found) throw notFound('No such member');
  return found;
}

/** The refunded total of an order, as its `refunded:<minor>` events recorded the provider's word. */
function refundedOf(events: { status: string }[]): number {
  return events.reduce((most, e) => {
    const match = /^refunded:(\d+)$/.exec(e.status);
    return match ? Math.max(most, Number(match[1])) : most;
  }, 0);
}

export async function memberDetail(ctx: AppContext, userId: number): Promise<MemberDetail> {
  const { user, profile, site } = await accountOf(ctx, userId);
  const db = dbOf(ctx);
  const [photos, orders, sessions, reports, sanctions, mandates, lockout] = await Promise.all([
    profile ? rows.photosOf(db, profile.id) : Promise.resolve([]),
    rows.ordersOf(db, userId, ORDERS_SHOWN),
    rows.sessionsOf(db, userId, ctx.now()),
    rows.reportsOf(db, userId, profile?.id ?? null),
    rows.sanctionsOf(db, userId),
    rows.mandatesOf(db, userId),
    loginLockoutOf(ctx, user.siteId, user.email),
  ]);
  const presentReport = (r: (typeof reports)[number]) => ({
    id: r.id,
    reference: r.reference,
    kind: r.kind,
    category: r.category,
    subject: r.subject,
    status: r.status,
    resolution: r.resolution,
    reported_profile_id: r.reportedProfileId,
    reporter_user_id: r.userId,
    created_at: r.createdAt.toISOString(),
  });
  const filed = reports.filter((r) => r.userId === userId);
  return {
    account: {
      user_id: user.id,
      email: user.email,
      status: user.status,
      language: user.language,
      site,
      signup_date: user.signupDate.toISOString(),
      confirmed_at: iso(user.confirmedAt),
      deleted_at: iso(user.deletedAt),
      notifications_disabled: user.notificationsDisabled,
      paid_user: user.paidUser,
      credits: user.credits,
      credit_debt: user.creditDebt,
    },
    profile: profile && {
      id: profile.id,
      name: profile.name,
      status: profile.status,
      country: profile.country,
      region: profile.region,
      city: profile.city,
      birth_date: profile.birthDate,
      gender: profile.gender,
      about: profile.about,
      is_invisible: profile.isInvisible,
      fields: {
        sexuality: profile.sexuality,
        hair_colour: profile.hairColour,
        eye_colour: profile.eyeColour,
        body_type: profile.bodyType,
        relationship_status: profile.relationshipStatus,
        looking_for: profile.lookingFor,
        interests: profile.interests,
      },
      photos: photos.map((p) => ({
        id: p.id,
        status: p.status,
        width: p.width,
        height: p.height,
        is_main: profile.mainPhotoId === p.id,
        created_at: p.createdAt.toISOString(),
      })),
    },
    // Orders as the member's transactions page knows them: no card or account data is kept, none is shown.
    orders: orders.map(({ order, events }) => ({
      id: order.id,
      status: order.status,
      method: order.method,
      provider: order.provider,
      credits: order.credits,
      amount_minor: order.amountMinor,
      currency: order.currency,
      refunded_minor: refundedOf(events),
      created_at: order.createdAt.toISOString(),
      paid_at: iso(order.paidAt),
      events: events.map((e) => ({ status: e.status, created_at: e.createdAt.toISOString() })),
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      device: s.userAgent,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
    })),
    complaints: filed.filter((r) => r.kind === 'complaint').map(presentReport),
    reports_by: filed.filter((r) => r.kind !== 'complaint').map(presentReport),
    reports_about: reports.filter((r) => profile !== null && r.reportedProfileId === profile.id).map(presentReport),
    sanctions: sanctions.map((s) => ({
      id: s.id,
      kind: s.kind,
      reason: s.reason,
      until: iso(s.until),
      lifted_at: iso(s.liftedAt),
      created_at: s.createdAt.toISOString(),
    })),
    direct_debit: {
      blocked: user.directDebitBlocked,
      mandates: mandates.map((m) => ({ id: m.id, iban_last4: m.ibanLast4, status: m.status, created_at: m.createdAt.toISOString() })),
    },
    login_lockout: lockout,
    reactivation_until:
      user.status === 'deleted' && user.deletedAt ? new Date(user.deletedAt.getTime() + REACTIVATION_DAYS * DAY_MS).toISOString() : null,
  };
}

export async function memberLedger(ctx: AppContext, userId: number, page: number): Promise<MemberLedger> {
  await accountOf(ctx, userId);
  const { rows: entries, total } = await rows.ledgerPage(dbOf(ctx), userId, page, LEDGER_PER_PAGE);
  return {
    entries: entries.map((e) => ({
      id: e.id,
      delta: e.delta,
      balance_after: e.balanceAfter,
      reason: e.reason,
      created_at: e.createdAt.toISOString(),
    })),
    page,
    pages: Math.max(1, Math.ceil(total / LEDGER_PER_PAGE)),
    total,
  };
}

export async function memberPhoto(ctx: AppContext, userId: number, photoId: number, variant: 'large' | 'thumb'): Promise<Buffer> {
  const bytes = await readPhotoForStaff(ctx, userId, photoId, variant);
  if (!bytes) throw notFound('Photo not found');
  return bytes;
}

async function siteOf(ctx: AppContext, siteId: number) {
  const site = await ctx.sites.get(siteId);
  if (!site) throw new Error(`Site ${siteId} is missing`);
  return site;
}

const target = (userId: number) => ({ objectType: 'user', objectId: userId });

/** The activation mail again (the member's own path: at most three an hour). */
export async function resendActivation(ctx: AppContext, actor: Actor, userId: number): Promise<void> {
  const { user, profile } = await accountOf(ctx, userId);
  if (user.status !== 'not_confirmed') {
    throw new HttpError(409, 'already_confirmed', 'This email address is already confirmed', { message_key: E.alreadyConfirmed });
  }
  await sendActivationAgain(ctx, await siteOf(ctx, user.siteId), user, profile?.name ?? '', () =>
    audit(ctx, actor, { action: 'support.resend_activation', ...target(userId), before: { status: user.status }, after: { mailed: true } }),
  );
}

/**
 * Ends the member's login throttle windows. They live in the limiter's store (Redis or its table), outside any
 * unit of work: the audit row follows the clearing, with the state before it.
 */
export async function clearLockout(ctx: AppContext, actor: Actor, userId: number): Promise<void> {
  const { user } = await accountOf(ctx, userId);
  const before = await loginLockoutOf(ctx, user.siteId, user.email);
  await clearLoginLockout(ctx, user.siteId, user.email);
  await withTransaction(ctx, () =>
    audit(ctx, actor, { action: 'support.clear_lockout', ...target(userId), before, after: { locked: false } }),
  );
}

/**
 * Adds or takes credits through the credits service (a ledger row, reason `support:<staff id>`; the balance is
 * never set). A debit larger than the balance is refused (409) and changes nothing.
 */
export async function adjustCredits(
  ctx: AppContext,
  actor: Actor & { staffId: number },
  userId: number,
  input: { amount: number; reason: string },
): Promise<{ balance: number }> {
  const { user } = await accountOf(ctx, userId);
  const change = { userId, siteId: user.siteId, amount: Math.abs(input.amount), reason: `support:${actor.staffId}` };
  return withTransaction(ctx, async () => {
    const result = input.amount > 0 ? await credit(ctx, change) : await spend(ctx, change);
    if ('insufficient' in result) {
      throw new HttpError(409, 'balance_too_low', 'The balance is lower than the credits to take', { message_key: E.balanceTooLow });
    }
    await audit(ctx, actor, {
      action: 'support.credits',
      ...target(userId),
      before: { balance: result.balance - input.amount },
      after: { balance: result.balance, amount: input.amount, reason: input.reason },
    });
    return result;
  });
}

/**
 * Refunds (part of) a paid order through the payment provider; the credits correction follows as for any refund.
 * Support may refund up to SUPPORT_REFUND_LIMIT_MINOR of an order in all (what was refunded before included);
 * above it only an admin (403 for support).
 */
export async function refund(
  ctx: AppContext,
  actor: Actor,
  staff: Pick<StaffRow, 'role'>,
  params: { userId: number; orderId: number },
  input: { amount_minor?: number; reason: string },
) {
  const found = await orderWithPayment(ctx, params.orderId);
  if (!found || found.order.userId !== params.userId) throw notFound('No such order of this member');
  const { order, payment } = found;
  const notRefundable = (message: string) => new HttpError(409, 'not_refundable', message, { message_key: E.notRefundable });
  if (order.status !== 'paid' || !payment) throw notRefundable('Only a paid order can be refunded');
  const remaining = order.amountMinor - payment.refundedMinor - payment.chargedBackMinor;
  const amount = input.amount_minor ?? remaining;
  if (remaining <= 0 || amount > remaining) throw notRefundable(`At most ${Math.max(0, remaining)} (minor units) remain to refund`);
  if (staff.role !== 'admin' && payment.refundedMinor + amount > SUPPORT_REFUND_LIMIT_MINOR) {
    throw new HttpError(
      403,
      'refund_above_limit',
      `Support may refund up to ${(SUPPORT_REFUND_LIMIT_MINOR / 100).toFixed(2)} of an order; an admin can refund more`,
      { message_key: E.refundAboveLimit, limit_minor: SUPPORT_REFUND_LIMIT_MINOR },
    );
  }
  const after = await refundOrder(
    ctx,
    order.id,
    {
      paymentId: payment.id,
      amountMinor: amount,
      currency: order.currency,
      description: `Refund of order ${order.id}`,
      idempotencyKey: `refund:${order.id}:${payment.refundedMinor + amount}`,
    },
    (result) =>
      audit(ctx, actor, {
        action: 'support.refund',
        objectType: 'order',
        objectId: order.id,
        before: { status: order.status, refunded_minor: payment.refundedMinor },
        after: {
          status: result.status,
          refunded_minor: result.refundedMinor,
          amount_minor: amount,
          user_id: params.userId,
          reason: input.reason,
        },
      }),
  );
  return { order_id: order.id, refunded_minor: after.refundedMinor, status: after.status };
}

export async function unblockDirectDebit(ctx: AppContext, actor: Actor, userId: number, reason: string): Promise<void> {
  const { user } = await accountOf(ctx, userId);
  await withTransaction(ctx, async () => {
    await unblockDirectDebitFor(ctx, userId);
    await audit(ctx, actor, {
      action: 'support.unblock_direct_debit',
      ...target(userId),
      before: { direct_debit_blocked: user.directDebitBlocked },
      after: { direct_debit_blocked: false, reason },
    });
  });
}

/** Deletes the account as the member's own deletion does: 14 days to come back by the mailed link. */
export async function deleteMember(ctx: AppContext, actor: Actor, userId: number, reason: string): Promise<void> {
  const { user, profile } = await accountOf(ctx, userId);
  if (user.status === 'deleted')
    throw new HttpError(409, 'already_deleted', 'The account is deleted already', { message_key: E.alreadyDeleted });
  await deleteAccountForMember(ctx, await siteOf(ctx, user.siteId), user, profile?.name ?? '', reason, () =>
    audit(ctx, actor, {
      action: 'support.delete',
      ...target(userId),
      before: { status: user.status },
      after: { status: 'deleted', reason },
    }),
  );
}

/**
 * Erases the account and what every module keeps of it now (an erasure request, GDPR art. 17; admins only), as
 * the purge after the 14 days does. The audit row names the account by its id only.
 */
export async function eraseMember(ctx: AppContext, actor: Actor, userId: number, reason: string): Promise<void> {
  const { user, profile } = await accountOf(ctx, userId);
  await purgeAccountNow(ctx, { userId, profileId: profile?.id ?? null }, () =>
    audit(ctx, actor, {
      action: 'support.erase',
      ...target(userId),
      before: { status: user.status, site_id: user.siteId },
      after: { erased: true, reason },
    }),
  );
}
