import { DISCOUNT_ERRORS, type DiscountCodeView, TIME_BONUS, type TimeBonusResponse } from '@amora/contracts';
import { creditPackages, discountCodes, discountRedemptions, paymentOrders, users } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTransaction } from '../../lib/transaction';
import { HERZ, siteByDomain } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { activeDiscountFor, discountOf, markDiscountUsed, priceWithDiscount, releaseDiscount, reserveDiscount } from './discounts.service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let amoraId: number;
let herzId: number;
beforeAll(async () => {
  t = await createTestApp();
  amoraId = (await siteByDomain(t, 'amora.localhost')).id;
  herzId = (await siteByDomain(t, 'herzklopfen.localhost')).id;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.set(new Date());
});

async function timeBonus(who: Member): Promise<TimeBonusResponse> {
  const res = await callAs(t, who, 'GET', '/api/timebonus.php');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function lookUp(who: Member | null, query: string) {
  return callAs(t, who, 'GET', `/api/discountcode.php?${query}`);
}

let codeCount = 0;
/** A code of the site (upper-case, as codes are stored), with the rules given. */
async function makeCode(values: Partial<typeof discountCodes.$inferInsert> = {}) {
  const [row] = await t.ctx.db
    .insert(discountCodes)
    .values({
      code: `TEST${++codeCount}X`,
      siteId: amoraId,
      valuePercentage: 20,
      source: 'code',
      expiresAt: new Date(t.clock.now().getTime() + DAY),
      ...values,
    })
    .returning();
  return row;
}

let packageId: number;
async function aPackage() {
  if (packageId) return packageId;
  const [row] = await t.ctx.db
    .insert(creditPackages)
    .values({ siteId: amoraId, country: 'NL', currency: 'EUR', credits: 100, priceMinor: 2_000, position: 99 })
    .returning();
  packageId = row.id;
  return packageId;
}

/** An open order of the member (as the orders service stores it before calling the provider). */
async function anOrder(who: Member, discountCodeId: number | null = null) {
  const [row] = await t.ctx.db
    .insert(paymentOrders)
    .values({
      siteId: amoraId,
      userId: who.userId,
      packageId: await aPackage(),
      country: 'NL',
      credits: 100,
      currency: 'EUR',
      listPriceMinor: 2_000,
      amountMinor: 1_500,
      discountCodeId,
      method: 'ideal',
      provider: 'sandbox',
      status: 'open',
    })
    .returning();
  return row.id;
}

function price(who: Member, code: string, over: Partial<Parameters<typeof priceWithDiscount>[1]> = {}) {
  return priceWithDiscount(t.ctx, {
    siteId: amoraId,
    userId: who.userId,
    code,
    country: 'NL',
    method: 'ideal',
    currency: 'EUR',
    amountMinor: 2_000,
    now: t.ctx.now(),
    ...over,
  });
}

async function pay(orderId: number, userId: number) {
  await withTransaction(t.ctx, async (tx) => {
    await tx.update(paymentOrders).set({ status: 'paid' }).where(eq(paymentOrders.id, orderId));
    await tx.update(users).set({ paidUser: true }).where(eq(users.id, userId));
    await markDiscountUsed(t.ctx, orderId);
  });
}

describe('GET /api/timebonus.php', () => {
  it('appears at signup, counts down with the clock and ends at exactly 4 hours', async () => {
    const member = await createMember(t);
    const first = await timeBonus(member);
    expect(first).toMatchObject({ is_visible: true, seconds_left: TIME_BONUS.windowSeconds });
    expect(first.discount).toMatchObject({
      code: 'TIMEBONUS25',
      value_percentage: 25,
      status: 'active',
      source: 'time_bonus',
      expired: false,
      validity: TIME_BONUS.windowSeconds,
    });
    const signup = (await t.ctx.db.select().from(users).where(eq(users.id, member.userId)))[0].signupDate;
    expect(first.discount?.expires).toBe(new Date(signup.getTime() + 4 * HOUR).toISOString());

    t.clock.advance(1_000);
    expect((await timeBonus(member)).seconds_left).toBe(TIME_BONUS.windowSeconds - 1);
    t.clock.advance(HOUR);
    expect((await timeBonus(member)).seconds_left).toBe(TIME_BONUS.windowSeconds - 3_601);

    t.clock.set(new Date(signup.getTime() + 4 * HOUR - 1_000));
    expect(await timeBonus(member)).toMatchObject({ is_visible: true, seconds_left: 1 });
    expect((await price(member, 'TIMEBONUS25')).ok).toBe(true);
    t.clock.set(new Date(signup.getTime() + 4 * HOUR));
    expect(await timeBonus(member)).toEqual({ is_visible: false, seconds_left: 0, discount: null });
    expect(await price(member, 'TIMEBONUS25')).toEqual({ ok: false, error: 'discount_expired' });
  });

  it('is one site-wide TIMEBONUS25 row per site, made once however many ask at once', async () => {
    const members = await Promise.all([createMember(t), createMember(t), createMember(t, { host: HERZ })]);
    const answers = await Promise.all(members.flatMap((m) => Array.from({ length: 10 }, () => timeBonus(m))));
    expect(answers.every((a) => a.is_visible)).toBe(true);
    const rows = await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.code, TIME_BONUS.code));
    expect(rows.map((r) => r.siteId).sort()).toEqual([amoraId, herzId].sort());
    expect(rows.every((r) => r.userId === null && r.source === 'time_bonus')).toBe(true);
  });

  it('is cleared when the member pays, and once used it is never offered again', async () => {
    const member = await createMember(t);
    const bonus = await price(member, 'timebonus25');
    expect(bonus).toMatchObject({ ok: true, percentage: 25, discountMinor: 500 });
    if (!bonus.ok) return;
    const orderId = await anOrder(member, bonus.discountCodeId);
    await reserveDiscount(t.ctx, { discountCodeId: bonus.discountCodeId, userId: member.userId, orderId });
    expect((await timeBonus(member)).is_visible).toBe(true);
    await pay(orderId, member.userId);
    expect(await timeBonus(member)).toEqual({ is_visible: false, seconds_left: 0, discount: null });
    expect(await price(member, 'TIMEBONUS25')).toEqual({ ok: false, error: 'discount_used' });
    expect(await activeDiscountFor(t.ctx, { siteId: amoraId, userId: member.userId, now: t.ctx.now() })).toBeNull();
  });

  it('is not shown to a member who signed up more than 4 hours ago, nor to one who has paid', async () => {
    const member = await createMember(t);
    t.clock.advance(5 * HOUR);
    expect((await timeBonus(member)).is_visible).toBe(false);
    const paid = await createMember(t);
    await t.ctx.db.update(users).set({ paidUser: true }).where(eq(users.id, paid.userId));
    expect((await timeBonus(paid)).is_visible).toBe(false);
    expect(await price(paid, 'TIMEBONUS25')).toEqual({ ok: false, error: 'discount_expired' });
  });

  it('needs a member', async () => {
    const res = await callAs(t, null, 'GET', '/api/timebonus.php');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required' });
  });
});

describe('priceWithDiscount and the order lifecycle', () => {
  it('answers every discount error', async () => {
    const member = await createMember(t);
    const other = await createMember(t);
    const cases: [string, Partial<typeof discountCodes.$inferInsert>, Partial<Parameters<typeof priceWithDiscount>[1]>][] = [
      ['discount_not_found', { status: 'disabled' }, {}],
      ['discount_not_found', { userId: other.userId }, {}],
      ['discount_expired', { expiresAt: new Date(t.clock.now().getTime() - 1) }, {}],
      ['discount_expired', { status: 'expired' }, {}],
      ['discount_minimum', { minimumOrderValue: 2_001 }, {}],
      ['discount_country', { country: 'DE' }, {}],
      ['discount_method', { paymentMethods: ['paypal', 'visa'] }, {}],
      ['discount_currency', { currency: 'PLN' }, {}],
    ];
    const seen = new Set<string>(['discount_used']);
    for (const [error, values, input] of cases) {
      const code = await makeCode(values);
      expect(await price(member, code.code, input), error).toEqual({ ok: false, error });
      seen.add(error);
    }
    expect(await price(member, 'NO-SUCH-CODE')).toEqual({ ok: false, error: 'discount_not_found' });
    expect([...seen].sort()).toEqual([...DISCOUNT_ERRORS].sort());
  });

  it('applies a code that fits: its own country, currency, minimum and methods, in any case typed', async () => {
    const member = await createMember(t);
    const code = await makeCode({
      country: 'NL',
      currency: 'EUR',
      minimumOrderValue: 2_000,
      paymentMethods: ['ideal'],
      valuePercentage: 15,
    });
    expect(await price(member, code.code.toLowerCase())).toEqual({ ok: true, discountCodeId: code.id, percentage: 15, discountMinor: 300 });
    // The method is not chosen yet: not checked.
    expect((await price(member, code.code, { method: null })).ok).toBe(true);
    const own = await makeCode({ userId: member.userId });
    expect((await price(member, own.code)).ok).toBe(true);
  });

  it('rounds the discount to the nearest minor unit, a half in the member’s favour', () => {
    expect(discountOf(999, 25)).toBe(250);
    expect(discountOf(998, 25)).toBe(250);
    expect(discountOf(997, 25)).toBe(249);
    // Never the whole price: the provider refuses an amount of nothing.
    expect(discountOf(1_000, 100)).toBe(999);
    expect(discountOf(1_000, 99)).toBe(990);
    expect(discountOf(1, 10)).toBe(0);
  });

  it('is used once per member: reserved by an open order, given back when it fails, used when it is paid', async () => {
    const member = await createMember(t);
    const code = await makeCode();
    const reserve = (orderId: number) => reserveDiscount(t.ctx, { discountCodeId: code.id, userId: member.userId, orderId });
    const first = await anOrder(member, code.id);
    expect(await reserve(first)).toBe(true);
    // Held by a checkout the member may have left behind, the code stays on offer (the next order takes it over).
    expect((await price(member, code.code)).ok).toBe(true);
    await releaseDiscount(t.ctx, first);
    expect(await t.ctx.db.select().from(discountRedemptions).where(eq(discountRedemptions.orderId, first))).toHaveLength(0);

    const second = await anOrder(member, code.id);
    const third = await anOrder(member, code.id);
    // A retried reservation of the same order keeps it; another open order of the member does not get it.
    expect([await reserve(second), await reserve(second), await reserve(third)]).toEqual([true, true, false]);
    await pay(second, member.userId);
    await pay(second, member.userId);
    expect(await price(member, code.code)).toEqual({ ok: false, error: 'discount_used' });
    expect(await reserve(third)).toBe(false);
    const rows = await t.ctx.db
      .select()
      .from(discountRedemptions)
      .where(and(eq(discountRedemptions.discountCodeId, code.id), eq(discountRedemptions.userId, member.userId)));
    expect(rows.map((r) => [r.orderId, r.status])).toEqual([[second, 'used']]);
    // A used code is not given back by a late failure notice.
    await releaseDiscount(t.ctx, second);
    expect(await price(member, code.code)).toEqual({ ok: false, error: 'discount_used' });
    // Another member may still use a site-wide code.
    expect((await price(await createMember(t), code.code)).ok).toBe(true);
  });

  it('the delete discount offered before deleting is a code that works at checkout', async () => {
    const member = await createMember(t);
    await t.ctx.db.update(users).set({ paidUser: true }).where(eq(users.id, member.userId));
    const offer = await callAs(t, member, 'POST', '/api/delete-discount.php', { password: member.password });
    expect(offer.statusCode, offer.body).toBe(200);
    const { code, value_percentage } = offer.json();
    const priced = await price(member, code);
    expect(priced).toMatchObject({ ok: true, percentage: value_percentage });
    if (!priced.ok) return;
    const orderId = await anOrder(member, priced.discountCodeId);
    await reserveDiscount(t.ctx, { discountCodeId: priced.discountCodeId, userId: member.userId, orderId });
    await pay(orderId, member.userId);
    expect(await price(member, code)).toEqual({ ok: false, error: 'discount_used' });
    // Used once, it is not offered again.
    expect((await callAs(t, member, 'POST', '/api/delete-discount.php', { password: member.password })).statusCode).toBe(404);
    // Nor does it work for anyone else.
    expect(await price(await createMember(t), code)).toEqual({ ok: false, error: 'discount_not_found' });
  });
});

describe('GET /api/discountcode.php', () => {
  it('answers the code with every field of spec §3', async () => {
    const member = await createMember(t);
    const code = await makeCode({ country: 'NL', currency: 'EUR', minimumOrderValue: 500, paymentMethods: ['ideal', 'paypal'] });
    const res = await lookUp(member, `code=${code.code.toLowerCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    const discount: DiscountCodeView = res.json().discount;
    expect(discount).toEqual({
      code: code.code,
      country: 'NL',
      user_id: null,
      expires: code.expiresAt.toISOString(),
      value_percentage: 20,
      currency: 'EUR',
      minimum_order_value: 500,
      status: 'active',
      validity: 86_400,
      expired: false,
      paymentmethods: ['ideal', 'paypal'],
      source: 'code',
    });
  });

  it('checks the code against a package, a method and a country', async () => {
    const member = await createMember(t);
    const pkg = await aPackage();
    const code = await makeCode({ country: 'NL', currency: 'EUR', minimumOrderValue: 2_500, paymentMethods: ['ideal'] });
    const expectError = async (query: string, status: number, error: string) => {
      const res = await lookUp(member, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ error });
    };
    await expectError(`code=${code.code}&package=${pkg}`, 422, 'discount_minimum');
    const cheap = await makeCode({ country: 'NL', currency: 'EUR', paymentMethods: ['ideal'] });
    expect((await lookUp(member, `code=${cheap.code}&package=${pkg}&method=ideal`)).statusCode).toBe(200);
    await expectError(`code=${cheap.code}&package=${pkg}&method=paypal`, 422, 'discount_method');
    await expectError(`code=${cheap.code}&country=de`, 422, 'discount_country');
    await expectError(`code=${cheap.code}&package=999999`, 404, 'package_not_found');
    await expectError('code=NOPE', 404, 'discount_not_found');
  });

  it("does not show another member's personal code, nor a code of another site", async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const own = await makeCode({ userId: owner.userId });
    expect((await lookUp(owner, `code=${own.code}`)).statusCode).toBe(200);
    const res = await lookUp(other, `code=${own.code}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'discount_not_found' });
    const herz = await makeCode({ siteId: herzId });
    expect((await lookUp(owner, `code=${herz.code}`)).statusCode).toBe(404);
    // Another member's welcome code too.
    const welcome = (await lookUp(owner, 'welcome=true')).json().discount as DiscountCodeView;
    expect((await lookUp(other, `code=${welcome.code}`)).json()).toMatchObject({ error: 'discount_not_found' });
  });

  it('refuses bad input with 400', async () => {
    const member = await createMember(t);
    for (const query of [
      'code=AB%00CD',
      `code=${'A'.repeat(41)}`,
      `code=${'A'.repeat(20_000)}`,
      'code=%E2%80%AE',
      'code=a b',
      '',
      'code=ABC&welcome=true',
      'welcome=yes',
      'code=ABC&package=-1',
      'code=ABC&package=abc',
      'code=ABC&country=NLD',
      'code=ABC&method=%00',
      'code=ABC&extra=1',
      'code[]=a',
    ]) {
      const res = await lookUp(member, query);
      expect([400, 414], `${query}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('needs a member', async () => {
    const res = await lookUp(null, 'welcome=true');
    expect(res.statusCode).toBe(403);
  });
});

describe('welcome discount', () => {
  it('is one 25 % code per member, the same one for 100 calls at once, valid until 72 hours after signup', async () => {
    const member = await createMember(t);
    const answers = await Promise.all(Array.from({ length: 100 }, () => lookUp(member, 'welcome=true')));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const codes = new Set(answers.map((r) => (r.json().discount as DiscountCodeView).code));
    expect(codes.size).toBe(1);
    const rows = await t.ctx.db
      .select()
      .from(discountCodes)
      .where(and(eq(discountCodes.userId, member.userId), eq(discountCodes.source, 'welcome')));
    expect(rows).toHaveLength(1);
    const discount = answers[0].json().discount as DiscountCodeView;
    expect(discount).toMatchObject({ value_percentage: 25, user_id: member.userId, source: 'welcome', status: 'active' });
    const signup = (await t.ctx.db.select().from(users).where(eq(users.id, member.userId)))[0].signupDate;
    expect(discount.expires).toBe(new Date(signup.getTime() + 72 * HOUR).toISOString());

    // The time bonus first, then the welcome discount.
    const active = () => activeDiscountFor(t.ctx, { siteId: amoraId, userId: member.userId, now: t.ctx.now() });
    expect((await active())?.source).toBe('time_bonus');
    t.clock.advance(4 * HOUR);
    expect((await active())?.code).toBe(discount.code);
    t.clock.set(new Date(signup.getTime() + 72 * HOUR));
    expect(await active()).toBeNull();
    expect((await lookUp(member, 'welcome=true')).json()).toEqual({ discount: null });
    expect(await price(member, discount.code)).toEqual({ ok: false, error: 'discount_expired' });
  });

  it('is made by the active discount too, for a member who never asked for it, the same code as asked for later', async () => {
    const member = await createMember(t);
    t.clock.advance(5 * HOUR);
    const active = await activeDiscountFor(t.ctx, { siteId: amoraId, userId: member.userId, now: t.ctx.now() });
    expect(active).toMatchObject({ source: 'welcome', value_percentage: 25 });
    expect(active?.code).toMatch(/^WELCOME[A-Z2-9]{8}$/);
    expect((await lookUp(member, 'welcome=true')).json().discount.code).toBe(active?.code);
  });

  it('is none for a paid member', async () => {
    const member = await createMember(t);
    await t.ctx.db.update(users).set({ paidUser: true }).where(eq(users.id, member.userId));
    expect((await lookUp(member, 'welcome=true')).json()).toEqual({ discount: null });
  });
});
