import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  conversations,
  creditPackages,
  likes,
  messages,
  paymentEvents,
  paymentOrders,
  profiles,
  reportDayMoney,
  reportDaySources,
  reportDays,
  reportRollup,
  siteVisits,
  users,
} from '@amora/db';
import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, call, HERZ } from '../../test/accounts';
import { createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { rebuildReportRollup } from './rollup.service';

let t: TestApp;
let admin: StaffMember;
const others: StaffMember[] = [];
let member: Member;
/** A stand-in web build: the page, and a render of the landing page that the server keeps (plugins/prerender.ts). */
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-reports-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>');
  mkdirSync(join(webDist, 'ssr'));
  writeFileSync(
    join(webDist, 'ssr', 'entry-server.js'),
    'export async function prerender(input) { return "<main>" + input.url + "</main>"; }\n',
  );
  t = await createTestApp({ webDist });
  admin = await createStaffMember(t, 'admin');
  for (const role of ['moderator', 'support', 'operator'] as const) {
    t.clock.advance(31_000);
    others.push(await createStaffMember(t, role));
  }
  member = await createMember(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
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

  it('answers the last 30 days by default', async () => {
    const report = (await callAsStaff(t, admin, 'GET', '/api/console/reports')).json();
    expect(report.days).toHaveLength(30);
    expect(report.to).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(typeof report.funnel.visits).toBe('number');
    expect(Array.isArray(report.sources)).toBe(true);
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
    // Members 0 and 1 came through the video lander from a network, member 2 through tinderswipe without one.
    const tracking: Record<string, string>[] = [
      { lander: 'video', slug: 'eng', network: 'facebook', sub1: 'a' },
      { lander: 'video', slug: 'eng', network: 'facebook' },
      { lander: 'tinderswipe', slug: '' },
      {},
      {},
    ];
    for (const [i, who] of people.entries()) {
      await db
        .update(users)
        .set({ signupDate: at(signedUp[i], 8), confirmedAt: confirmed[i] ? at(confirmed[i] as string, 9) : null, tracking: tracking[i] })
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
    expect(r.totals.active_members_peak).toBe(2);
    expect(r.totals.active_members_average).toBe(1.3);
    expect(r.funnel).toEqual({ visits: 0, signups: 5, activations: 4, first_purchases: 3 });
    expect(r.rollup).toBeNull();
  });

  it('counts signups, activations and first purchases per lander, slug and network the members came through', async () => {
    const r = await report(`site=${siteId}&from=${DAYS[0]}&to=${DAYS[2]}`);
    const source = (lander: string, slug: string, network: string, signups: number, activations: number, first_purchases: number) => ({
      lander,
      slug,
      network,
      visits: 0,
      signups,
      activations,
      first_purchases,
    });
    expect(r.sources).toEqual([
      source('', '', '', 2, 1, 1),
      source('video', 'eng', 'facebook', 2, 2, 2),
      source('tinderswipe', '', '', 1, 1, 0),
    ]);
    expect(r.sources_left_off).toBe(0);
    // Each counted on its day: the first day alone has the three signups and member 0's purchase.
    expect((await report(`site=${siteId}&from=${DAYS[0]}&to=${DAYS[0]}`)).sources).toEqual([
      source('video', 'eng', 'facebook', 2, 0, 1),
      source('tinderswipe', '', '', 1, 0, 0),
    ]);
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
      'day,visits,signups,activations,first_purchases,currency,orders_paid,revenue_minor,refunds,refunds_minor,chargebacks,chargebacks_minor,messages_members,messages_fictional,active_members,active_members_daily_average,active_members_daily_peak',
    );
    expect(lines).toContain('2021-05-11,0,2,1,1,CHF,1,1500,0,0,0,0,1,1,1,,');
    expect(lines).toContain('2021-05-11,0,2,1,1,EUR,1,1999,0,0,0,0,1,1,1,,');
    expect(lines).toContain('2021-05-12,0,0,3,1,EUR,1,2999,2,500,0,0,0,0,1,,');
    expect(lines.at(-1)).toMatch(/^total,0,5,4,3,EUR,3,5997,2,500,0,0,3,1,2,1.3,2$/);
  });
});

describe('visits', () => {
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const today = () => t.clock.now().toISOString().slice(0, 10);
  let siteId: number;

  beforeAll(async () => {
    const [account] = await t.ctx.db.select().from(users).where(eq(users.id, member.userId));
    siteId = account.siteId;
  });

  /** A page document loaded by a browser, as the server serves it. */
  const load = (url: string, { cookie, agent = BROWSER, host = AMORA }: { cookie?: string; agent?: string; host?: string } = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { host, 'user-agent': agent, accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });
  const visitsOf = async (lander: string, slug = '', network = '') => {
    const [row] = await t.ctx.db
      .select()
      .from(siteVisits)
      .where(
        and(
          eq(siteVisits.day, today()),
          eq(siteVisits.siteId, siteId),
          eq(siteVisits.lander, lander),
          eq(siteVisits.slug, slug),
          eq(siteVisits.network, network),
        ),
      );
    return row?.visits ?? 0;
  };
  const allVisits = async () => Number((await t.ctx.db.select({ n: sql<string>`coalesce(sum(visits), 0)` }).from(siteVisits))[0].n);

  it("counts a visitor's first page of the day by lander, slug and network, and sets the day's cookie", async () => {
    const res = await load('/landers/video?network=%20Facebook%20&sub1=x');
    expect(res.statusCode).toBe(200);
    expect(await visitsOf('video', '', 'Facebook')).toBe(1);
    const cookie = res.cookies.find((c) => c.name === 'amora_visit');
    expect(cookie).toMatchObject({ value: today(), path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(new Date(cookie?.expires as Date).toISOString()).toBe(new Date(Date.parse(`${today()}T00:00:00Z`) + 86_400_000).toISOString());

    // The same browser again today: its cookie says it is counted.
    await load('/landers/video?network=Facebook', { cookie: `amora_visit=${today()}` });
    await load('/signup', { cookie: `amora_visit=${today()}` });
    expect(await visitsOf('video', '', 'Facebook')).toBe(1);
    // Yesterday's cookie (a browser whose clock is behind) does not stop today's count.
    await load('/landers/video/eng', { cookie: 'amora_visit=2020-01-01' });
    expect(await visitsOf('video', 'eng')).toBe(1);

    await load('/de/landers/tinderswipe?network=tiktok');
    expect(await visitsOf('tinderswipe', '', 'tiktok')).toBe(1);
    await load(`/landers/gallery?network=${'n'.repeat(100)}`);
    expect(await visitsOf('gallery', '', 'n'.repeat(64))).toBe(1);
  });

  it('counts every browser on the landing page, whose render the server keeps', async () => {
    const before = await visitsOf('');
    for (let i = 0; i < 3; i++) {
      const res = await load('/');
      expect(res.body).toContain('<main>/</main>');
    }
    expect(await visitsOf('')).toBe(before + 3);
  });

  it('does not count members, bots, scripts, prefetches, unknown pages, API calls or the console', async () => {
    const before = await allVisits();
    const counted = (res: { cookies: { name: string }[] }) => res.cookies.some((c) => c.name === 'amora_visit');
    const quiet = [
      await load('/landers/video', { cookie: member.cookie }),
      await load('/members', { cookie: member.cookie }),
      await load('/landers/video', { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
      await load('/', {
        agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      }),
      await load('/', { agent: 'curl/8.5.0' }),
      await load('/', { agent: '' }),
      await t.app.inject({ method: 'GET', url: '/', headers: { host: AMORA, 'user-agent': BROWSER, 'sec-purpose': 'prefetch' } }),
      await load('/no-such-page'),
      await load('/landers/video/no-such-slug'),
      await load('/console'),
      await load('/api/settings.php'),
    ];
    for (const res of quiet) expect(counted(res)).toBe(false);
    expect(await allVisits()).toBe(before);
  });

  it('keeps sites apart, and the report shows the visits per day, in the funnel and per lander, slug and network', async () => {
    await load('/landers/video?network=Facebook', { host: HERZ });
    const r = (await callAsStaff(t, admin, 'GET', `/api/console/reports?site=${siteId}&from=${today()}&to=${today()}`)).json();
    const stored = await t.ctx.db
      .select({ n: sql<string>`sum(visits)` })
      .from(siteVisits)
      .where(and(eq(siteVisits.siteId, siteId), eq(siteVisits.day, today())));
    expect(r.days[0].visits).toBe(Number(stored[0].n));
    expect(r.totals.visits).toBe(Number(stored[0].n));
    expect(r.funnel.visits).toBe(Number(stored[0].n));
    expect(r.sources).toContainEqual(expect.objectContaining({ lander: 'video', slug: '', network: 'Facebook', visits: 1 }));
    expect(r.sources).toContainEqual(expect.objectContaining({ lander: 'tinderswipe', slug: '', network: 'tiktok', visits: 1 }));
    expect(r.sources.reduce((sum: number, v: { visits: number }) => sum + v.visits, 0)).toBe(r.totals.visits);
    expect(r.sources_left_off).toBe(0);
    const all = (await callAsStaff(t, admin, 'GET', `/api/console/reports?from=${today()}&to=${today()}`)).json();
    expect(all.totals.visits).toBe(r.totals.visits + 1);

    const csv = await callAsStaff(t, admin, 'GET', `/api/console/reports.csv?site=${siteId}&from=${today()}&to=${today()}`);
    expect(csv.body.split('\r\n')[1].split(',')[1]).toBe(String(r.totals.visits));
  });
});

/**
 * The rollup of closed days: the same figures as counted live, read from report_days and report_day_money once
 * the `reports.rollup` job has built them. Checked against the tables counted here, in the test, another way.
 */
describe('the rollup of closed days', () => {
  const DAY_MS = 86_400_000;
  let now: Date;
  let siteId: number;
  /** Four days before today up to today (UTC); the last one is not closed, so always counted live. */
  let days: string[];

  /** A pseudo-random but repeatable sequence. */
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const at = (day: string, minute: number) => new Date(Date.parse(`${day}T00:00:00Z`) + minute * 60_000);

  beforeAll(async () => {
    // The day stands still for these tests, whatever the hour they run at: at 22:00 UTC at the latest, so that the
    // hour a test moves the clock on stays in the same day.
    const real = t.clock.now();
    const today = real.toISOString().slice(0, 10);
    now = new Date(Math.min(real.getTime(), Date.parse(`${today}T22:00:00Z`)));
    t.clock.set(now);
    days = [4, 3, 2, 1, 0].map((back) => new Date(Date.parse(`${today}T00:00:00Z`) - back * DAY_MS).toISOString().slice(0, 10));
    const db = t.ctx.db;
    const people: Member[] = [];
    for (let i = 0; i < 8; i++) people.push(await createMember(t, { activate: i % 3 !== 0 }));
    [{ siteId }] = await db.select({ siteId: users.siteId }).from(users).where(eq(users.id, people[0].userId));
    const sources: Record<string, string>[] = [
      {},
      { lander: 'video', slug: 'eng', network: 'facebook' },
      { lander: 'gallery', slug: 'milf-eng' },
    ];
    for (const [i, who] of people.entries()) {
      const signed = random(4);
      await db
        .update(users)
        .set({
          tracking: sources[i % sources.length],
          signupDate: at(days[signed], random(1440)),
          confirmedAt: random(3) === 0 ? null : at(days[signed + random(5 - signed)], 1439),
        })
        .where(eq(users.id, who.userId));
    }
    const [pack] = await db.select().from(creditPackages).where(eq(creditPackages.siteId, siteId)).limit(1);
    for (let i = 0; i < 14; i++) {
      const who = people[random(people.length)];
      const day = days[random(5)];
      const paidAt = random(5) === 0 ? null : at(day, random(1440));
      const chargedBackAt = paidAt && random(6) === 0 ? at(days[Math.min(4, days.indexOf(day) + 1)], 600) : null;
      const [order] = await db
        .insert(paymentOrders)
        .values({
          siteId,
          userId: who.userId,
          packageId: pack.id,
          country: 'NL',
          credits: 10,
          currency: random(3) === 0 ? 'CHF' : 'EUR',
          listPriceMinor: 999,
          amountMinor: 500 + random(3000),
          method: 'ideal',
          provider: 'sandbox',
          providerPaymentId: `tr_${randomBytes(6).toString('hex')}`,
          status: chargedBackAt ? 'charged_back' : paidAt ? 'paid' : 'failed',
          paidAt,
          chargedBackAt,
        })
        .returning();
      if (paidAt && random(4) === 0) {
        await db.insert(paymentEvents).values([
          { orderId: order.id, status: 'refunded:200', createdAt: new Date(paidAt.getTime() + 60_000) },
          { orderId: order.id, status: 'refunded:450', createdAt: at(days[4], 1) },
        ]);
      }
    }
    const fictional = [await createProfile(t, { siteId, isFictional: true }), await createProfile(t, { siteId, isFictional: true })];
    for (const [i, who] of people.entries()) {
      const other = fictional[i % 2];
      const [conversation] = await db
        .insert(conversations)
        .values({
          siteId,
          profileLowId: Math.min(who.profileId, other.id),
          profileHighId: Math.max(who.profileId, other.id),
          startedByProfileId: who.profileId,
          lastSeq: 6,
        })
        .returning();
      for (let seq = 1; seq <= 6; seq++) {
        await db.insert(messages).values({
          conversationId: conversation.id,
          seq,
          senderProfileId: random(2) === 0 ? who.profileId : other.id,
          body: 'Hello',
          clientId: randomBytes(6).toString('hex'),
          createdAt: at(days[random(5)], random(1440)),
        });
      }
      const liked = people[(i + 1) % people.length];
      await db.insert(likes).values({
        likerProfileId: who.profileId,
        likedProfileId: liked.profileId,
        source: 'search',
        createdAt: at(days[random(5)], random(1440)),
      });
      await db
        .insert(likes)
        .values({ likerProfileId: other.id, likedProfileId: who.profileId, source: 'auto', createdAt: at(days[random(5)], random(1440)) })
        .onConflictDoNothing();
    }
  });

  /** Every figure per day of `period`, counted here from the rows as the decisions define them (one site, or all). */
  async function expected(onSite: number | null, from: string, to: string) {
    const db = t.ctx.db;
    const of = (site: number) => onSite === null || site === onSite;
    const dayOf = (date: Date | null) => date?.toISOString().slice(0, 10) ?? '';
    const inRange = (day: string) => day >= from && day <= to;
    const figures = new Map<string, Record<string, number | Record<string, number[]>>>();
    const day = (d: string) => {
      let f = figures.get(d);
      if (!f) {
        f = {
          signups: 0,
          activations: 0,
          first_purchases: 0,
          messages_members: 0,
          messages_fictional: 0,
          revenue: {},
          refunds: {},
          chargebacks: {},
        };
        figures.set(d, f);
      }
      return f;
    };
    const add = (d: string, key: string, by = 1) => {
      if (inRange(d)) (day(d)[key] as number) += by;
    };
    const addMoney = (d: string, key: string, currency: string, amount: number) => {
      if (!inRange(d)) return;
      const list = day(d)[key] as Record<string, number[]>;
      list[currency] = [(list[currency]?.[0] ?? 0) + 1, (list[currency]?.[1] ?? 0) + amount];
    };
    const accounts = await db.select().from(users);
    const bySource = new Map<
      string,
      { lander: string; slug: string; network: string; visits: number; signups: number; activations: number; first_purchases: number }
    >();
    const toSource = (
      from: { lander?: string; slug?: string; network?: string },
      key: 'visits' | 'signups' | 'activations' | 'first_purchases',
      by = 1,
    ) => {
      const [lander, slug, network] = [from.lander ?? '', from.slug ?? '', from.network ?? ''];
      const id = JSON.stringify([lander, slug, network]);
      const found = bySource.get(id) ?? { lander, slug, network, visits: 0, signups: 0, activations: 0, first_purchases: 0 };
      found[key] += by;
      bySource.set(id, found);
    };
    for (const u of accounts) {
      if (!of(u.siteId)) continue;
      add(dayOf(u.signupDate), 'signups');
      if (inRange(dayOf(u.signupDate))) toSource(u.tracking, 'signups');
      if (u.confirmedAt) add(dayOf(u.confirmedAt), 'activations');
      if (u.confirmedAt && inRange(dayOf(u.confirmedAt))) toSource(u.tracking, 'activations');
    }
    const orders = await db.select().from(paymentOrders);
    const firstPaid = new Map<number, (typeof orders)[number]>();
    for (const o of orders) {
      if (!o.paidAt || o.userId === null) continue;
      const first = firstPaid.get(o.userId);
      if (!first || (first.paidAt as Date) > o.paidAt || ((first.paidAt as Date).getTime() === o.paidAt.getTime() && first.id > o.id)) {
        firstPaid.set(o.userId, o);
      }
    }
    for (const o of firstPaid.values()) {
      if (!of(o.siteId)) continue;
      add(dayOf(o.paidAt), 'first_purchases');
      const buyer = accounts.find((u) => u.id === o.userId);
      if (buyer && inRange(dayOf(o.paidAt))) toSource(buyer.tracking, 'first_purchases');
    }
    for (const o of orders) {
      if (!of(o.siteId)) continue;
      if (o.paidAt) addMoney(dayOf(o.paidAt), 'revenue', o.currency, o.amountMinor);
      if (o.chargedBackAt) addMoney(dayOf(o.chargedBackAt), 'chargebacks', o.currency, o.amountMinor);
    }
    const events = (await db.select().from(paymentEvents)).filter((e) => e.status.startsWith('refunded:')).sort((a, b) => a.id - b.id);
    const refundedSoFar = new Map<number, number>();
    for (const e of events) {
      const order = orders.find((o) => o.id === e.orderId);
      const total = Number(e.status.split(':')[1]);
      const before = refundedSoFar.get(e.orderId) ?? 0;
      refundedSoFar.set(e.orderId, Math.max(before, total));
      if (order && of(order.siteId)) addMoney(dayOf(e.createdAt), 'refunds', order.currency, total - before);
    }
    const senders = new Map((await db.select().from(profiles)).map((p) => [p.id, p]));
    const active = new Map<string, Set<number>>();
    const act = (d: string, who: number) => {
      if (!inRange(d)) return;
      active.set(d, (active.get(d) ?? new Set()).add(who));
    };
    for (const m of await db.select().from(messages)) {
      const sender = senders.get(m.senderProfileId);
      if (!sender || !of(sender.siteId)) continue;
      add(dayOf(m.createdAt), sender.isFictional ? 'messages_fictional' : 'messages_members');
      if (!sender.isFictional) act(dayOf(m.createdAt), m.senderProfileId);
    }
    for (const l of await db.select().from(likes)) {
      const liker = senders.get(l.likerProfileId);
      if (liker && of(liker.siteId) && !liker.isFictional) act(dayOf(l.createdAt), l.likerProfileId);
    }
    const visits = await db.select().from(siteVisits);
    for (const v of visits) if (of(v.siteId) && inRange(v.day)) toSource(v, 'visits', v.visits);
    const sources = [...bySource.values()].sort(
      (a, b) =>
        b.visits - a.visits ||
        b.signups - a.signups ||
        a.lander.localeCompare(b.lander) ||
        a.slug.localeCompare(b.slug) ||
        a.network.localeCompare(b.network),
    );
    const money = (list: Record<string, number[]>) =>
      Object.entries(list)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, [count, amount_minor]]) => ({ currency, count, amount_minor }));
    const list = [];
    for (let d = from; d <= to; d = new Date(Date.parse(`${d}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)) {
      const f = day(d);
      list.push({
        day: d,
        visits: visits.filter((v) => v.day === d && of(v.siteId)).reduce((sum, v) => sum + v.visits, 0),
        signups: f.signups as number,
        activations: f.activations as number,
        first_purchases: f.first_purchases as number,
        revenue: money(f.revenue as Record<string, number[]>),
        refunds: money(f.refunds as Record<string, number[]>),
        chargebacks: money(f.chargebacks as Record<string, number[]>),
        messages_members: f.messages_members as number,
        messages_fictional: f.messages_fictional as number,
        active_members: active.get(d)?.size ?? 0,
      });
    }
    const distinct = new Set([...active.values()].flatMap((who) => [...who])).size;
    return { days: list, distinct, sources };
  }

  const report = async (query: string) => {
    const res = await callAsStaff(t, admin, 'GET', `/api/console/reports?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const rollupRows = async () => ({
    days: await t.ctx.db.select().from(reportDays).orderBy(reportDays.day, reportDays.siteId),
    money: await t.ctx.db
      .select()
      .from(reportDayMoney)
      .orderBy(reportDayMoney.day, reportDayMoney.siteId, reportDayMoney.kind, reportDayMoney.currency),
    sources: await t.ctx.db
      .select()
      .from(reportDaySources)
      .orderBy(reportDaySources.day, reportDaySources.siteId, reportDaySources.lander, reportDaySources.slug, reportDaySources.network),
  });

  /** The report of the five days for one site and for every site equals the counts, before and after the rollup. */
  async function expectTheCounts(rolled: boolean) {
    for (const site of [siteId, null]) {
      const r = await report(`${site ? `site=${site}&` : ''}from=${days[0]}&to=${days[4]}`);
      const want = await expected(site, days[0], days[4]);
      expect(r.days, `site ${site}`).toEqual(want.days);
      expect(r.sources, `site ${site}`).toEqual(want.sources);
      expect(r.totals.active_members).toBe(want.distinct);
      expect(r.rollup).toEqual(rolled ? { from: days[0], to: days[3], rebuilt_at: expect.any(String) } : null);
    }
  }

  it('counts every figure live before the rollup is built', async () => {
    expect(await t.ctx.db.select().from(reportRollup)).toEqual([]);
    await expectTheCounts(false);
  });

  it('builds the rollup by its job, then reads the closed days from it with the same figures, today live', async () => {
    await t.ctx.jobs.runDue();
    const [state] = await t.ctx.db.select().from(reportRollup);
    expect(state).toMatchObject({
      computedThrough: days[4],
      computedFrom: new Date(Date.parse(`${days[4]}T00:00:00Z`) - 400 * DAY_MS).toISOString().slice(0, 10),
    });
    expect((await t.ctx.db.select().from(reportDays).where(eq(reportDays.day, days[4]))).length).toBe(0);
    await expectTheCounts(true);
  });

  it('answers a period longer than 31 days with the daily average and peak of active members, and says so in the CSV', async () => {
    const from = new Date(Date.parse(`${days[4]}T00:00:00Z`) - 59 * DAY_MS).toISOString().slice(0, 10);
    const r = await report(`site=${siteId}&from=${from}&to=${days[4]}`);
    const want = await expected(siteId, from, days[4]);
    expect(r.days).toEqual(want.days);
    const perDay = want.days.map((d) => d.active_members);
    expect(r.totals.active_members).toBeNull();
    expect(r.totals.active_members_peak).toBe(Math.max(...perDay));
    expect(r.totals.active_members_average).toBe(Math.round((perDay.reduce((a, b) => a + b, 0) / 60) * 10) / 10);
    const csv = await callAsStaff(t, admin, 'GET', `/api/console/reports.csv?site=${siteId}&from=${from}&to=${days[4]}`);
    expect(csv.body.trim().split('\r\n').at(-1)).toContain(
      `,not counted over 31 days,${r.totals.active_members_average},${r.totals.active_members_peak}`,
    );
  });

  it('stays as built until the next rebuild, which shows what was deleted in a closed day', async () => {
    const [gone] = await t.ctx.db
      .select()
      .from(messages)
      .where(and(gte(messages.createdAt, at(days[1], 0)), lt(messages.createdAt, at(days[4], 0))))
      .limit(1);
    await t.ctx.db.delete(messages).where(eq(messages.id, gone.id));
    const dayGone = gone.createdAt.toISOString().slice(0, 10);
    const before = (await report(`from=${dayGone}&to=${dayGone}`)).days[0];
    const want = (await expected(null, dayGone, dayGone)).days[0];
    expect(before.messages_members + before.messages_fictional).toBe(want.messages_members + want.messages_fictional + 1);

    // The job runs every hour but rebuilds once a day: today's is done.
    await t.ctx.jobs.runDue();
    t.clock.advance(3_600_000);
    await t.ctx.jobs.runDue();
    expect((await report(`from=${dayGone}&to=${dayGone}`)).days[0]).toEqual(before);

    expect((await rebuildReportRollup(t.ctx, { force: true })).rebuilt).toBe(true);
    await expectTheCounts(true);
  });

  it('is rebuilt to the same rows every time, also by two rebuilds at once', async () => {
    const once = await rollupRows();
    expect(once.days.length).toBeGreaterThan(0);
    expect(once.money.length).toBeGreaterThan(0);
    expect(once.sources.length).toBeGreaterThan(0);
    await rebuildReportRollup(t.ctx, { force: true });
    expect(await rollupRows()).toEqual(once);
    const both = await Promise.all([rebuildReportRollup(t.ctx, { force: true }), rebuildReportRollup(t.ctx, { force: true })]);
    expect(both.map((b) => b.rebuilt)).toEqual([true, true]);
    expect(await rollupRows()).toEqual(once);
    // Without force, the second of two at once finds today's rollup built and leaves it.
    const [first, second] = await Promise.all([rebuildReportRollup(t.ctx), rebuildReportRollup(t.ctx)]);
    expect(first.rebuilt || second.rebuilt).toBe(false);
    expect(await rollupRows()).toEqual(once);
  });
});
