import { randomBytes } from 'node:crypto';
import { conversations, creditPackages, likes, messages, paymentEvents, paymentOrders, profiles, users } from '@amora/db';
import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts';
import { createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';

let t: TestApp;
let admin: StaffMember;
const others: StaffMember[] = [];
let member: Member;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createStaffMember(t, 'admin');
  for (const role of ['moderator', 'support', 'operator'] as const) {
    t.clock.advance(31_000);
    others.push(await createStaffMember(t, role));
  }
  member = await createMember(t);
});
afterAll(async () => {
  await t?.close();
});

const URLS = ['/api/console/reports', '/api/console/reports.csv'];

describe('who may read the business reports', () => {
  it('refuses visitors and members (401) and every role but admin (403)', async () => {
    for (const url of URLS) {
      expect((await callAsStaff(t, null, 'GET', url)).statusCode, url).toBe(401);
      expect((await call(t, 'GET', url, undefined, { cookie: member.cookie })).statusCode, url).toBe(401);
      for (const who of others) {
        const res = await callAsStaff(t, who, 'GET', url);
        expect(res.statusCode, `${who.role} ${url}`).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
      expect((await callAsStaff(t, admin, 'GET', url)).statusCode, url).toBe(200);
    }
  });

  it('answers the last 30 days by default, visits not recorded', async () => {
    const report = (await callAsStaff(t, admin, 'GET', '/api/console/reports')).json();
    expect(report.days).toHaveLength(30);
    expect(report.to).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(report.funnel.visits).toBeNull();
    expect(report.not_recorded).toContain('visits');
  });

  it('refuses a bad period (400) and an unknown site (404)', async () => {
    for (const query of [
      'from=2025-02-10&to=2025-02-01',
      'from=2024-01-01&to=2025-02-04',
      'from=2025-02-30&to=2025-03-01',
      'from=yesterday',
      'to=2025-13-01',
      'site=abc',
      'site=0',
    ]) {
      for (const url of URLS) expect((await callAsStaff(t, admin, 'GET', `${url}?${query}`)).statusCode, `${url}?${query}`).toBe(400);
    }
    expect((await callAsStaff(t, admin, 'GET', '/api/console/reports?from=2024-01-01&to=2025-02-03')).statusCode).toBe(200);
    expect((await callAsStaff(t, admin, 'GET', '/api/console/reports?site=999999')).statusCode).toBe(404);
  });
});

describe('the figures', () => {
  const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  const DAYS = ['2021-05-10', '2021-05-11', '2021-05-12'];
  let siteId: number;

  beforeAll(async () => {
    const db = t.ctx.db;
    const people: Member[] = [];
    for (let i = 0; i < 5; i++) people.push(await createMember(t, { activate: i !== 4 }));
    const [account] = await db.select().from(users).where(eq(users.id, people[0].userId));
    siteId = account.siteId;
    // Signups on the 10th (3) and 11th (2), activations on the 11th (1) and 12th (3); one never activated.
    const signedUp = [DAYS[0], DAYS[0], DAYS[0], DAYS[1], DAYS[1]];
    const confirmed = [DAYS[1], DAYS[2], DAYS[2], DAYS[2], null];
    for (const [i, who] of people.entries()) {
      await db
        .update(users)
        .set({ signupDate: at(signedUp[i], 8), confirmedAt: confirmed[i] ? at(confirmed[i] as string, 9) : null })
        .where(eq(users.id, who.userId));
    }

    const [pack] = await db.select().from(creditPackages).where(eq(creditPackages.siteId, siteId)).limit(1);
    const order = async (
      who: Member,
      currency: string,
      amount: number,
      paidAt: Date | null,
      extra: Partial<typeof paymentOrders.$inferInsert> = {},
    ) => {
      const [row] = await db
        .insert(paymentOrders)
        .values({
          siteId,
          userId: who.userId,
          packageId: pack.id,
          country: 'NL',
          credits: 10,
          currency,
          listPriceMinor: amount,
          amountMinor: amount,
          method: 'ideal',
          provider: 'sandbox',
          providerPaymentId: `tr_${randomBytes(6).toString('hex')}`,
          status: paidAt ? 'paid' : 'failed',
          paidAt,
          ...extra,
        })
        .returning();
      return row;
    };
    // Member 0: first purchase on the 10th, again on the 11th; member 1: first on the 11th (CHF), charged back on the 12th;
    // member 2: a failed order only; member 3: first purchase on the 12th, refunded 300 then 500 in all.
    await order(people[0], 'EUR', 999, at(DAYS[0]));
    await order(people[0], 'EUR', 1999, at(DAYS[1]));
    await order(people[1], 'CHF', 1500, at(DAYS[1], 13), { status: 'charged_back', chargedBackAt: at(DAYS[2]) });
    await order(people[2], 'EUR', 999, null);
    const refunded = await order(people[3], 'EUR', 2999, at(DAYS[2], 10));
    await db.insert(paymentEvents).values([
      { orderId: refunded.id, status: 'paid', createdAt: at(DAYS[2], 10) },
      { orderId: refunded.id, status: 'refunded:300', createdAt: at(DAYS[2], 14) },
      { orderId: refunded.id, status: 'refunded:500', createdAt: at(DAYS[2], 15) },
    ]);

    // Messages: member 0 writes twice on the 10th and once on the 11th, a fictional profile answers once on the 11th.
    const fictional = await createProfile(t, { siteId, isFictional: true });
    const low = Math.min(people[0].profileId, fictional.id);
    const high = Math.max(people[0].profileId, fictional.id);
    const [conversation] = await db
      .insert(conversations)
      .values({ siteId, profileLowId: low, profileHighId: high, startedByProfileId: people[0].profileId, lastSeq: 4 })
      .returning();
    const message = (seq: number, sender: number, createdAt: Date) => ({
      conversationId: conversation.id,
      seq,
      senderProfileId: sender,
      body: 'Hello',
      clientId: randomBytes(6).toString('hex'),
      createdAt,
    });
    await db
      .insert(messages)
      .values([
        message(1, people[0].profileId, at(DAYS[0], 10)),
        message(2, people[0].profileId, at(DAYS[0], 11)),
        message(3, fictional.id, at(DAYS[1], 10)),
        message(4, people[0].profileId, at(DAYS[1], 11)),
      ]);
    // Likes: member 1 on the 10th (and member 0 wrote that day too), member 0 on the 12th; a fictional like counts for no one.
    await db.insert(likes).values([
      { likerProfileId: people[1].profileId, likedProfileId: fictional.id, source: 'search', createdAt: at(DAYS[0], 15) },
      { likerProfileId: people[0].profileId, likedProfileId: people[2].profileId, source: 'search', createdAt: at(DAYS[2], 15) },
      { likerProfileId: fictional.id, likedProfileId: people[3].profileId, source: 'auto', createdAt: at(DAYS[2], 16) },
    ]);
  });

  const report = async (query: string) => {
    const res = await callAsStaff(t, admin, 'GET', `/api/console/reports?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('counts each figure per day as stored', async () => {
    const r = await report(`site=${siteId}&from=${DAYS[0]}&to=${DAYS[2]}`);
    expect(r.days.map((d: { day: string }) => d.day)).toEqual(DAYS);
    const pick = (key: string) => r.days.map((d: Record<string, unknown>) => d[key]);
    expect(pick('signups')).toEqual([3, 2, 0]);
    expect(pick('activations')).toEqual([0, 1, 3]);
    expect(pick('first_purchases')).toEqual([1, 1, 1]);
    expect(pick('messages_members')).toEqual([2, 1, 0]);
    expect(pick('messages_fictional')).toEqual([0, 1, 0]);
    expect(pick('active_members')).toEqual([2, 1, 1]);
    expect(pick('revenue')).toEqual([
      [{ currency: 'EUR', count: 1, amount_minor: 999 }],
      [
        { currency: 'CHF', count: 1, amount_minor: 1500 },
        { currency: 'EUR', count: 1, amount_minor: 1999 },
      ],
      [{ currency: 'EUR', count: 1, amount_minor: 2999 }],
    ]);
    expect(pick('refunds')).toEqual([[], [], [{ currency: 'EUR', count: 2, amount_minor: 500 }]]);
    expect(pick('chargebacks')).toEqual([[], [], [{ currency: 'CHF', count: 1, amount_minor: 1500 }]]);
    expect(r.totals.revenue).toEqual([
      { currency: 'CHF', count: 1, amount_minor: 1500 },
      { currency: 'EUR', count: 3, amount_minor: 999 + 1999 + 2999 },
    ]);
    // Distinct over the period: members 0 and 1.
    expect(r.totals.active_members).toBe(2);
    expect(r.funnel).toEqual({ visits: null, signups: 5, activations: 4, first_purchases: 3 });
  });

  it('equals the counts taken from the tables directly', async () => {
    const db = t.ctx.db;
    const from = at(DAYS[0], 0);
    const until = at('2021-05-13', 0);
    const r = await report(`site=${siteId}&from=${DAYS[0]}&to=${DAYS[2]}`);
    const [signups] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.siteId, siteId), gte(users.signupDate, from), lt(users.signupDate, until)));
    const [activations] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.siteId, siteId), gte(users.confirmedAt, from), lt(users.confirmedAt, until)));
    const paid = await db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.siteId, siteId), isNotNull(paymentOrders.paidAt)));
    const inPeriod = paid.filter((o) => (o.paidAt as Date) >= from && (o.paidAt as Date) < until);
    const firstOf = new Map<number, Date>();
    for (const o of paid) {
      const before = firstOf.get(o.userId as number);
      if (!before || (o.paidAt as Date) < before) firstOf.set(o.userId as number, o.paidAt as Date);
    }
    const firsts = [...firstOf.values()].filter((d) => d >= from && d < until).length;
    const sent = await db
      .select({ fictional: profiles.isFictional, n: sql<number>`count(*)::int` })
      .from(messages)
      .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
      .where(and(eq(profiles.siteId, siteId), gte(messages.createdAt, from), lt(messages.createdAt, until)))
      .groupBy(profiles.isFictional);
    expect(r.totals.signups).toBe(signups.n);
    expect(r.totals.activations).toBe(activations.n);
    expect(r.totals.first_purchases).toBe(firsts);
    const eur = inPeriod.filter((o) => o.currency === 'EUR');
    expect(r.totals.revenue.find((m: { currency: string }) => m.currency === 'EUR')).toEqual({
      currency: 'EUR',
      count: eur.length,
      amount_minor: eur.reduce((sum, o) => sum + o.amountMinor, 0),
    });
    expect(r.totals.messages_members).toBe(sent.find((s) => !s.fictional)?.n ?? 0);
    expect(r.totals.messages_fictional).toBe(sent.find((s) => s.fictional)?.n ?? 0);
  });

  it('counts every site together without a site', async () => {
    const all = await report(`from=${DAYS[0]}&to=${DAYS[2]}`);
    const one = await report(`site=${siteId}&from=${DAYS[0]}&to=${DAYS[2]}`);
    expect(all.site_id).toBeNull();
    expect(all.totals.signups).toBeGreaterThanOrEqual(one.totals.signups);
  });

  it('sends the same as CSV, one row per day and currency', async () => {
    const res = await callAsStaff(t, admin, 'GET', `/api/console/reports.csv?site=${siteId}&from=${DAYS[0]}&to=${DAYS[2]}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="report-${siteId}-${DAYS[0]}-${DAYS[2]}.csv"`);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'day,visits,signups,activations,first_purchases,currency,orders_paid,revenue_minor,refunds,refunds_minor,chargebacks,chargebacks_minor,messages_members,messages_fictional,active_members',
    );
    expect(lines).toContain('2021-05-11,not recorded,2,1,1,CHF,1,1500,0,0,0,0,1,1,1');
    expect(lines).toContain('2021-05-11,not recorded,2,1,1,EUR,1,1999,0,0,0,0,1,1,1');
    expect(lines).toContain('2021-05-12,not recorded,0,3,1,EUR,1,2999,2,500,0,0,0,0,1');
    expect(lines.at(-1)).toMatch(/^total,not recorded,5,4,3,EUR,3,5997,2,500,0,0,3,1,2$/);
  });
});
