import { chatsResponseSchema, type Message, messagesResponseSchema } from '@amora/contracts';
import { conversations, creditLedger, DEMO_MEMBERS, loadDemoChatTexts, messages, profiles, sites, users } from '@amora/db';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, call, DEMO, DEMO_HERZ, HERZ, login, sessionCookie } from '../test/accounts';
import { createTestApp, type TestApp } from '../test/harness';
import { seedDemoChats } from './demo-chats';
import { seedDemoProfiles } from './demo-profiles';

/** The demo chats of a first start, on the demo members of a smaller seed (the same code, fewer portraits). */
let t: TestApp;
let made: number;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoProfiles(t.ctx, 60);
  made = await seedDemoChats(t.ctx, t.ctx.now());
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function profileOfEmail(email: string) {
  const [row] = await t.ctx.db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(users.email, email));
  return row.id;
}

describe('demo chats', () => {
  it('numbers every conversation 1..n, free of charge, written only by members with an account', async () => {
    expect(made).toBeGreaterThanOrEqual(8);
    const all = await t.ctx.db.select().from(conversations);
    expect(all).toHaveLength(made);
    for (const conversation of all) {
      const rows = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversation.id)).orderBy(asc(messages.seq));
      expect(rows.map((m) => m.seq)).toEqual(Array.from({ length: conversation.lastSeq }, (_, i) => i + 1));
      expect(rows.length).toBeGreaterThan(0);
      for (const m of rows) {
        expect(m.price).toBe(0);
        const [sender] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, m.senderProfileId));
        expect(sender.isFictional).toBe(false);
        expect(sender.userId).not.toBeNull();
      }
    }
  });

  it('gives each demo login unread messages from other members and a fictional chat holding only its own messages', async () => {
    for (const [demo, host] of [
      [DEMO, AMORA],
      [DEMO_HERZ, HERZ],
    ] as const) {
      const res = await login(t, demo.email, demo.password, { host });
      expect(res.statusCode, res.body).toBe(200);
      const unread = res.json().user.num_unread_messages as number;
      // Yesterday's last text and the cat picture after it, and the new contact's two messages.
      expect(unread).toBe(4);

      const chatsRes = await call(t, 'GET', '/api/chats.php', undefined, { host, cookie: sessionCookie(res) });
      expect(chatsRes.statusCode, chatsRes.body).toBe(200);
      const chats = chatsResponseSchema.parse(chatsRes.json());
      expect(chats.num_unread_messages).toBe(unread);
      expect(chats.chats.length).toBeGreaterThanOrEqual(4);
      for (const chat of chats.chats.filter((c) => c.num_unread_messages > 0)) expect(chat.profile.is_fictional).toBe(false);

      const me = await profileOfEmail(demo.email);
      const fictional = chats.chats.filter((c) => c.profile.is_fictional);
      expect(fictional).toHaveLength(1);
      const held = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, fictional[0].conversation.id));
      expect(held.length).toBeGreaterThan(0);
      expect(held.every((m) => m.senderProfileId === me)).toBe(true);
    }
    expect(DEMO_MEMBERS.map((m) => m.email)).toEqual([DEMO.email, DEMO_HERZ.email]);
  });

  it('holds a gift and two pictures per demo login, through the photo pipeline: the cat blurred until asked for, the dunes opened', async () => {
    for (const [demo, host] of [
      [DEMO, AMORA],
      [DEMO_HERZ, HERZ],
    ] as const) {
      const cookie = sessionCookie(await login(t, demo.email, demo.password, { host }));
      const chats = chatsResponseSchema.parse((await call(t, 'GET', '/api/chats.php', undefined, { host, cookie })).json());
      const all: Message[] = [];
      for (const chat of chats.chats) {
        const res = await call(t, 'GET', `/api/messages.php?conversation=${chat.conversation.id}`, undefined, { host, cookie });
        all.push(...messagesResponseSchema.parse(res.json()).messages);
      }
      expect(all.filter((m) => m.kind === 'gift')).toEqual([expect.objectContaining({ from_me: true, gift: 'coffee', price: 0 })]);
      const photos = all.filter((m) => m.kind === 'photo');
      expect(photos).toHaveLength(2);
      const mine = photos.find((m) => m.from_me);
      const theirs = photos.find((m) => !m.from_me);
      expect(mine?.photo).toMatchObject({ width: 800, height: 600, revealed: true, opened: true });
      expect(theirs?.photo).toMatchObject({ width: 800, height: 600, revealed: false });
      // The files exist as the pipeline writes them; the sharp cat is not the login's until asked for.
      const theirUrl = theirs?.photo?.url ?? '';
      const blurred = await call(t, 'GET', theirUrl, undefined, { host, cookie });
      expect(blurred.statusCode).toBe(200);
      expect(blurred.headers['content-type']).toBe('image/webp');
      const sharp = theirUrl.replace('v=blur', 'v=large');
      expect((await call(t, 'GET', sharp, undefined, { host, cookie })).statusCode).toBe(404);
      expect((await call(t, 'GET', mine?.photo?.url ?? '', undefined, { host, cookie })).statusCode).toBe(200);
    }
  });

  it("writes every chat in the language of its member: the demo logins in their site's, the others in their starter's", async () => {
    const texts = loadDemoChatTexts();
    const linesOf = (locale: string) => new Set([...texts[locale].scripts.flat(), ...texts[locale].openers, ...texts[locale].toFictional]);
    const siteRows = await t.ctx.db.select().from(sites);
    // Every language a demo site offers has its chat texts.
    for (const site of siteRows)
      for (const language of site.languages)
        expect(texts[language]?.scripts.length, `${site.domain} ${language}`).toBeGreaterThanOrEqual(2);
    const logins = new Map<number, string>();
    for (const demo of DEMO_MEMBERS) {
      const [row] = await t.ctx.db
        .select({ id: profiles.id, language: users.language, domainLanguage: sites.domainLanguage })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .innerJoin(sites, eq(sites.id, users.siteId))
        .where(eq(users.email, demo.email));
      expect(row.language, demo.email).toBe(row.domainLanguage.slice(0, 2));
      logins.set(row.id, row.language);
    }
    expect([...logins.values()]).toEqual(['en', 'de']);
    const all = await t.ctx.db.select().from(conversations);
    for (const conversation of all) {
      const login = logins.get(conversation.profileLowId) ?? logins.get(conversation.profileHighId);
      const [starter] = await t.ctx.db
        .select({ language: users.language })
        .from(messages)
        .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(eq(messages.conversationId, conversation.id))
        .orderBy(asc(messages.seq))
        .limit(1);
      const expected = linesOf(login ?? starter.language);
      const bodies = (await t.ctx.db.select({ body: messages.body }).from(messages).where(eq(messages.conversationId, conversation.id)))
        .map((m) => m.body)
        .filter((body): body is string => !!body);
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(expected.has(body), body).toBe(true);
    }
  });

  it('leaves the ledger summing to every balance', async () => {
    const balances = await t.ctx.db.select({ id: users.id, credits: users.credits }).from(users);
    const sums = await t.ctx.db
      .select({ userId: creditLedger.userId, sum: sql<number>`sum(${creditLedger.delta})::int` })
      .from(creditLedger)
      .groupBy(creditLedger.userId);
    const sumOf = new Map(sums.map((row) => [row.userId, Number(row.sum)]));
    const rows = balances.map((b) => ({ credits: b.credits, sum: sumOf.get(b.id) ?? 0 }));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row.sum).toBe(row.credits);
  });
});
