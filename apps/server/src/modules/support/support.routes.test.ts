import { randomUUID } from 'node:crypto';
import { SUPPORT_REFUND_LIMIT_MINOR } from '@amora/contracts';
import { auditLog, creditLedger, paymentOrders, photos, users } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, HERZ, login, mailsTo, userRow } from '../../test/accounts';
import { callAs, createMember, type Member, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { completeCheckout } from '../payments/sandbox/sandbox.service';
import { notifyNow } from '../payments/sandbox/sandbox.shared';

let t: TestApp;
let admin: StaffMember;
let support: StaffMember;
let moderator: StaffMember;

beforeAll(async () => {
  t = await createTestApp({ trustProxy: true, geoCountryHeader: 'x-country-code' });
  admin = await createStaffMember(t, 'admin');
  t.clock.advance(31_000);
  support = await createStaffMember(t, 'support');
  t.clock.advance(31_000);
  moderator = await createStaffMember(t, 'moderator');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.advance(31_000);
});

const M = (userId: number) => `/api/console/members/${userId}`;

async function auditOf(action: string, objectId: number) {
  return t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.objectId, String(objectId))))
    .orderBy(desc(auditLog.id));
}

/** A paid order of the member's: the package at `index` (the last, €69.99, is above support's refund limit). */
async function buy(who: Member, index: number) {
  const packages = (await callAs(t, who, 'GET', '/api/packages.php')).json().packages as { id: number }[];
  const started = await callAs(t, who, 'POST', '/api/payments.php', {
    request_id: randomUUID(),
    package: packages[index].id,
    method: 'ideal',
  });
  expect(started.statusCode, started.body).toBe(201);
  const orderId = started.json().order.id as number;
  const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  const payment = await completeCheckout(t.app, order.providerPaymentId as string, { status: 'paid' });
  if (!payment) throw new Error('payment was not open');
  await notifyNow(t.app, payment);
  const [paid] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  expect(paid.status).toBe('paid');
  return paid;
}

describe('who may call member support', () => {
  let member: Member;
  beforeAll(async () => {
    member = await createMember(t);
  });

  const views = () =>
    [
      ['GET', `/api/console/members?q=${encodeURIComponent(member.email)}`],
      ['GET', M(member.userId)],
      ['GET', `${M(member.userId)}/ledger`],
    ] as const;
  const actions = () =>
    [
      ['POST', `${M(member.userId)}/resend-activation`, undefined],
      ['POST', `${M(member.userId)}/clear-lockout`, undefined],
      ['POST', `${M(member.userId)}/credits`, { amount: 5, reason: 'goodwill' }],
      ['POST', `${M(member.userId)}/orders/1/refund`, { reason: 'double charge' }],
      ['POST', `${M(member.userId)}/unblock-direct-debit`, { reason: 'paid the debt' }],
      ['POST', `${M(member.userId)}/delete`, { reason: 'asked by mail' }],
      ['POST', `${M(member.userId)}/erase`, { reason: 'erasure request' }],
    ] as const;

  it('refuses visitors and members (401), on views and actions alike', async () => {
    for (const [method, url, body] of [...views().map(([m, u]) => [m, u, undefined] as const), ...actions()]) {
      expect((await callAsStaff(t, null, method, url, body)).statusCode, url).toBe(401);
      expect((await call(t, method, url, body, { cookie: member.cookie })).statusCode, url).toBe(401);
    }
  });

  it('lets moderators see (200) but not act (403); support sees too', async () => {
    for (const [method, url] of views()) {
      expect((await callAsStaff(t, moderator, method, url)).statusCode, url).toBe(200);
      expect((await callAsStaff(t, support, method, url)).statusCode, url).toBe(200);
      expect((await callAsStaff(t, admin, method, url)).statusCode, url).toBe(200);
    }
    for (const [method, url, body] of actions()) {
      const res = await callAsStaff(t, moderator, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    // Erasure is an admin's alone.
    expect((await callAsStaff(t, support, 'POST', `${M(member.userId)}/erase`, { reason: 'erasure request' })).statusCode).toBe(403);
  });

  it('answers 400 to bad input and 404 to a member who does not exist', async () => {
    expect((await callAsStaff(t, support, 'GET', '/api/console/members')).statusCode).toBe(400);
    expect((await callAsStaff(t, support, 'GET', '/api/console/members?q=')).statusCode).toBe(400);
    expect((await callAsStaff(t, support, 'GET', '/api/console/members/abc')).statusCode).toBe(400);
    expect((await callAsStaff(t, support, 'GET', `${M(member.userId)}/ledger?page=0`)).statusCode).toBe(400);
    for (const body of [
      { amount: 0, reason: 'zero' },
      { amount: 1.5, reason: 'half' },
      { amount: 5 },
      { amount: 5, reason: 'x' },
      { amount: 5, reason: 'ok ok', extra: 1 },
    ]) {
      expect((await callAsStaff(t, support, 'POST', `${M(member.userId)}/credits`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await callAsStaff(t, support, 'POST', `${M(member.userId)}/orders/1/refund`, { amount_minor: -5, reason: 'refund' })).statusCode,
    ).toBe(400);
    expect((await callAsStaff(t, support, 'POST', `${M(member.userId)}/delete`, {})).statusCode).toBe(400);
    expect((await callAsStaff(t, support, 'GET', M(999_999_999))).statusCode).toBe(404);
  });
});

describe('finding a member', () => {
  it('finds a member of any site by address, account id, profile id or name, with the site shown', async () => {
    const name = `Zebulon ${randomUUID().slice(0, 6)}`;
    const herz = await createMember(t, { host: HERZ, name });
    const byEmail = (await callAsStaff(t, support, 'GET', `/api/console/members?q=${encodeURIComponent(herz.email.toUpperCase())}`)).json();
    expect(byEmail.members).toHaveLength(1);
    expect(byEmail.members[0]).toMatchObject({ user_id: herz.userId, profile_id: herz.profileId, name });
    expect(byEmail.members[0].site.domain).toMatch(/herzklopfen/);
    for (const q of [String(herz.userId), `p${herz.profileId}`, name.toLowerCase()]) {
      const found = (await callAsStaff(t, moderator, 'GET', `/api/console/members?q=${encodeURIComponent(q)}`)).json();
      expect(
        found.members.map((m: { user_id: number }) => m.user_id),
        q,
      ).toContain(herz.userId);
    }
    // Wildcards are taken literally.
    expect((await callAsStaff(t, support, 'GET', '/api/console/members?q=%25%25%25%40')).json().total).toBe(0);
    // A member of another site never reaches the console's search with their own cookie.
    const amora = await createMember(t);
    expect(
      (await call(t, 'GET', `/api/console/members?q=${encodeURIComponent(herz.email)}`, undefined, { cookie: amora.cookie })).statusCode,
    ).toBe(401);
  });

  it('pages through many hits', async () => {
    const tag = `pager${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 3; i++) await createMember(t, { name: `${tag} ${i}`, activate: false });
    const first = (await callAsStaff(t, support, 'GET', `/api/console/members?q=${tag}`)).json();
    expect(first).toMatchObject({ page: 1, pages: 1, total: 3 });
    const beyond = (await callAsStaff(t, support, 'GET', `/api/console/members?q=${tag}&page=2`)).json();
    expect(beyond.members).toEqual([]);
  });
});

describe('what a member sees', () => {
  it('shows the account, profile with photos, sessions, ledger and the login lockout', async () => {
    const member = await createMember(t);
    const photo = await uploadPhoto(t, member);
    const detail = (await callAsStaff(t, moderator, 'GET', M(member.userId))).json();
    expect(detail.account).toMatchObject({ user_id: member.userId, email: member.email, status: 'confirmed', paid_user: false });
    expect(detail.profile.id).toBe(member.profileId);
    expect(detail.profile.photos.map((p: { id: number }) => p.id)).toContain(photo.id);
    expect(detail.sessions.length).toBeGreaterThan(0);
    expect(detail.login_lockout.locked).toBe(false);
    expect(detail.direct_debit.blocked).toBe(false);

    const image = await callAsStaff(t, moderator, 'GET', `${M(member.userId)}/photos/${photo.id}?v=thumb`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    // A photo of another member under this member's address: not found.
    const other = await createMember(t);
    expect((await callAsStaff(t, moderator, 'GET', `${M(other.userId)}/photos/${photo.id}`)).statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(photos).where(eq(photos.id, photo.id));
    expect(row.profileId).toBe(member.profileId);

    const ledger = (await callAsStaff(t, support, 'GET', `${M(member.userId)}/ledger`)).json();
    expect(ledger.total).toBe(ledger.entries.length);
  });
});

describe('actions', () => {
  it('sends the activation mail again, audited; not for a confirmed address', async () => {
    const member = await createMember(t, { activate: false });
    const before = (await mailsTo(t, member.email, 'activation')).length;
    const res = await callAsStaff(t, support, 'POST', `${M(member.userId)}/resend-activation`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await mailsTo(t, member.email, 'activation')).toHaveLength(before + 1);
    const [row] = await auditOf('support.resend_activation', member.userId);
    expect(row.staffId).toBe(support.id);
    const confirmed = await createMember(t);
    expect((await callAsStaff(t, support, 'POST', `${M(confirmed.userId)}/resend-activation`)).statusCode).toBe(409);
  });

  it('clears a login lockout through the limiter, audited with the state before', async () => {
    const member = await createMember(t);
    for (let i = 0; i < 5; i++) await login(t, member.email, 'wrong-password-1', { ip: member.ip });
    expect((await login(t, member.email, member.password, { ip: member.ip })).statusCode).toBe(429);
    const locked = (await callAsStaff(t, support, 'GET', M(member.userId))).json().login_lockout;
    expect(locked).toMatchObject({ locked: true, attempts: 5, max: 5 });
    expect(locked.retry_after_seconds).toBeGreaterThan(0);

    expect((await callAsStaff(t, support, 'POST', `${M(member.userId)}/clear-lockout`)).statusCode).toBe(200);
    expect((await callAsStaff(t, support, 'GET', M(member.userId))).json().login_lockout.locked).toBe(false);
    expect((await login(t, member.email, member.password, { ip: member.ip })).statusCode).toBe(200);
    const [row] = await auditOf('support.clear_lockout', member.userId);
    expect(row.before).toMatchObject({ locked: true });
  });

  it('adjusts credits by a ledger row with the staff member in its reason; never below zero', async () => {
    const member = await createMember(t);
    const start = (await userRow(t, member.userId)).credits;
    const added = await callAsStaff(t, support, 'POST', `${M(member.userId)}/credits`, { amount: 40, reason: 'goodwill after an outage' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().balance).toBe(start + 40);
    const [entry] = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, member.userId)).orderBy(desc(creditLedger.id));
    expect(entry).toMatchObject({ delta: 40, balanceAfter: start + 40, reason: `support:${support.id}` });
    const [row] = await auditOf('support.credits', member.userId);
    expect(row.before).toEqual({ balance: start });
    expect(row.after).toMatchObject({ balance: start + 40, amount: 40, reason: 'goodwill after an outage' });

    const tooMuch = await callAsStaff(t, support, 'POST', `${M(member.userId)}/credits`, {
      amount: -(start + 41),
      reason: 'taking too much',
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toBe('balance_too_low');
    expect((await userRow(t, member.userId)).credits).toBe(start + 40);
    expect(await auditOf('support.credits', member.userId)).toHaveLength(1);
  });

  it('keeps the exact sum when 100 adjustments arrive at once', async () => {
    const member = await createMember(t);
    await callAsStaff(t, admin, 'POST', `${M(member.userId)}/credits`, { amount: 100, reason: 'starting balance' });
    const start = (await userRow(t, member.userId)).credits;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        callAsStaff(t, i % 2 === 0 ? support : admin, 'POST', `${M(member.userId)}/credits`, {
          amount: i % 2 === 0 ? 3 : -1,
          reason: `parallel ${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
    const user = await userRow(t, member.userId);
    expect(user.credits).toBe(start + 50 * 3 - 50);
    const entries = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, member.userId));
    expect(entries.reduce((sum, e) => sum + e.delta, 0)).toBe(user.credits);
  });

  it('refunds through the provider: support up to the limit, an admin above it; credits taken back', async () => {
    const member = await createMember(t);
    const order = await buy(member, 3);
    expect(order.amountMinor).toBeGreaterThan(SUPPORT_REFUND_LIMIT_MINOR);
    const refundUrl = `${M(member.userId)}/orders/${order.id}/refund`;

    const whole = await callAsStaff(t, support, 'POST', refundUrl, { reason: 'not satisfied' });
    expect(whole.statusCode).toBe(403);
    expect(whole.json().error).toBe('refund_above_limit');
    expect(whole.json().message).toMatch(/50\.00/);

    const part = await callAsStaff(t, support, 'POST', refundUrl, { amount_minor: 2000, reason: 'partly unused' });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ order_id: order.id, refunded_minor: 2000, status: 'paid' });
    const detail = (await callAsStaff(t, support, 'GET', M(member.userId))).json();
    expect(detail.orders.find((o: { id: number }) => o.id === order.id).refunded_minor).toBe(2000);
    const [taken] = await t.ctx.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.idempotencyKey, `refund:${order.id}:2000`));
    expect(taken.delta).toBeLessThan(0);
    expect((await auditOf('support.refund', order.id))[0].after).toMatchObject({ amount_minor: 2000, refunded_minor: 2000 });

    // Support's second refund of the order would pass the limit in all: refused; more than remains: refused.
    expect(
      (await callAsStaff(t, support, 'POST', refundUrl, { amount_minor: SUPPORT_REFUND_LIMIT_MINOR - 1999, reason: 'more' })).statusCode,
    ).toBe(403);
    expect((await callAsStaff(t, admin, 'POST', refundUrl, { amount_minor: order.amountMinor, reason: 'too much' })).statusCode).toBe(409);
    const rest = await callAsStaff(t, admin, 'POST', refundUrl, { reason: 'the rest, on appeal' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().refunded_minor).toBe(order.amountMinor);
    expect(await auditOf('support.refund', order.id)).toHaveLength(2);
    // Another member's order is not found under this member.
    const other = await createMember(t);
    expect(
      (await callAsStaff(t, admin, 'POST', `${M(other.userId)}/orders/${order.id}/refund`, { reason: 'wrong member' })).statusCode,
    ).toBe(404);
  });

  it('unblocks direct debit after a chargeback, audited', async () => {
    const member = await createMember(t);
    await t.ctx.db.update(users).set({ directDebitBlocked: true }).where(eq(users.id, member.userId));
    expect((await callAsStaff(t, support, 'GET', M(member.userId))).json().direct_debit.blocked).toBe(true);
    const res = await callAsStaff(t, support, 'POST', `${M(member.userId)}/unblock-direct-debit`, { reason: 'debt settled by transfer' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await userRow(t, member.userId)).directDebitBlocked).toBe(false);
    const [row] = await auditOf('support.unblock_direct_debit', member.userId);
    expect(row.before).toEqual({ direct_debit_blocked: true });
  });

  it("deletes an account as the member's own deletion does, with the 14 days to come back", async () => {
    const member = await createMember(t);
    const res = await callAsStaff(t, support, 'POST', `${M(member.userId)}/delete`, { reason: 'asked by mail' });
    expect(res.statusCode, res.body).toBe(200);
    const user = await userRow(t, member.userId);
    expect(user.status).toBe('deleted');
    expect(user.deletionReason).toBe('support');
    expect(await mailsTo(t, member.email, 'deleted')).toHaveLength(1);
    // Their session ended.
    expect((await call(t, 'GET', '/api/user.php', undefined, { cookie: member.cookie })).json().user).toBeNull();
    const detail = (await callAsStaff(t, support, 'GET', M(member.userId))).json();
    expect(detail.reactivation_until).not.toBeNull();
    expect((await auditOf('support.delete', member.userId))[0].after).toMatchObject({ status: 'deleted' });
    expect((await callAsStaff(t, support, 'POST', `${M(member.userId)}/delete`, { reason: 'again' })).statusCode).toBe(409);
  });

  it('erases an account at once (admin), leaving the audit row', async () => {
    const member = await createMember(t);
    await uploadPhoto(t, member);
    const res = await callAsStaff(t, admin, 'POST', `${M(member.userId)}/erase`, { reason: 'GDPR erasure request 2026-11' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(t, member.userId)).toBeUndefined();
    expect((await callAsStaff(t, admin, 'GET', M(member.userId))).statusCode).toBe(404);
    const [row] = await auditOf('support.erase', member.userId);
    expect(row.staffId).toBe(admin.id);
    expect(JSON.stringify(row.before)).not.toContain(member.email);
  });
});
