import type { AppEvent } from '@amora/contracts';
import { type Database, memberSanctions, sessions } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens';
import { call, currentUser, latestToken, login, sessionCookie } from '../../test/accounts';
import { callAs, createMember, type Member, nextIp } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { sessionCache } from './session-cache';
import { findSessionAccounts } from './sessions.repository';
import { findAuth } from './sessions.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tokenHashOf = (cookie: string) => hashToken(cookie.slice('auth.session='.length));
const isCached = (cookie: string) => sessionCache.get(t.ctx.db, tokenHashOf(cookie)) !== undefined;

/** A second session of the member, logged in from their address; both read once, so both are in the cache. */
async function secondSession(member: Member): Promise<string> {
  const res = await login(t, member.email, member.password, { host: member.host, ip: member.ip });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookie(res);
  // A login is a change made without a session: it forgot every session.
  for (const session of [cookie, member.cookie]) expect((await currentUser(t, session))?.id).toBe(member.userId);
  return cookie;
}

describe('sessions found lately (the session cache)', () => {
  it('answers reads from the cache, never a change', async () => {
    const member = await createMember(t);
    expect((await currentUser(t, member.cookie))?.id).toBe(member.userId);
    expect(isCached(member.cookie)).toBe(true);
    // A change reads its session from the database and forgets the member's sessions once it is handled.
    const saved = await callAs(t, member, 'PUT', '/api/user.php', { language: 'de' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(isCached(member.cookie)).toBe(false);
    // The next read sees what the change did.
    expect((await currentUser(t, member.cookie))?.language).toBe('de');
  });

  it('a refused change made without a session keeps what is cached; a login forgets it', async () => {
    const member = await createMember(t);
    // The signup's own events (profile.changed) have forgotten the member's sessions already.
    await t.ctx.events.idle();
    expect((await currentUser(t, member.cookie))?.id).toBe(member.userId);
    expect((await login(t, member.email, 'not-the-password', { ip: nextIp() })).statusCode).toBe(401);
    expect(isCached(member.cookie)).toBe(true);
    expect((await login(t, member.email, member.password, { ip: nextIp() })).statusCode).toBe(200);
    expect(isCached(member.cookie)).toBe(false);
  });

  it('logout ends the session at once in the same process', async () => {
    const member = await createMember(t);
    expect((await currentUser(t, member.cookie))?.id).toBe(member.userId);
    expect(isCached(member.cookie)).toBe(true);
    expect((await callAs(t, member, 'GET', '/api/logout.php')).statusCode).toBe(200);
    expect(await currentUser(t, member.cookie)).toBeNull();
    expect((await callAs(t, member, 'GET', '/api/profile.php')).statusCode).toBe(403);
  });

  it('a new password ends every other session at once, also when another member’s browser uses the link', async () => {
    const member = await createMember(t);
    const other = await secondSession(member);
    expect(isCached(member.cookie) && isCached(other)).toBe(true);
    expect((await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: nextIp() })).statusCode).toBe(200);
    await t.ctx.mailer.idle();
    const token = await latestToken(t, member.email, 'reset');
    // The link opened where someone else is logged in: their session, not the member's, makes the call.
    const someoneElse = await createMember(t);
    expect((await currentUser(t, someoneElse.cookie))?.id).toBe(someoneElse.userId);
    const res = await callAs(t, someoneElse, 'PUT', '/api/password-reset.php', {
      token,
      password: 'a-new-password-2026',
      password_confirm: 'a-new-password-2026',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await currentUser(t, member.cookie)).toBeNull();
    expect(await currentUser(t, other)).toBeNull();
    expect((await currentUser(t, someoneElse.cookie))?.id).toBe(someoneElse.userId);
  });

  it('a deleted member’s other sessions stop working at once', async () => {
    const member = await createMember(t);
    const other = await secondSession(member);
    expect(isCached(other)).toBe(true);
    const res = await callAs(t, member, 'DELETE', '/api/user.php', { password: member.password, reason: 'other' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await currentUser(t, other)).toBeNull();
    expect((await call(t, 'GET', '/api/profile.php', undefined, { cookie: other })).statusCode).toBe(403);
  });

  it('forgets a member’s sessions when another process says their sessions ended, their account or their profile changed', async () => {
    const member = await createMember(t);
    const said: AppEvent[] = [
      { type: 'session.ended', siteId: 1, userId: member.userId },
      { type: 'account.changed', siteId: 1, userId: member.userId },
      { type: 'profile.changed', siteId: 1, profileId: member.profileId, fields: ['about'] },
    ];
    for (const event of said) {
      expect((await currentUser(t, member.cookie))?.id).toBe(member.userId);
      expect(isCached(member.cookie)).toBe(true);
      t.ctx.events.publish(event);
      await t.ctx.events.idle();
      expect(isCached(member.cookie), event.type).toBe(false);
    }
  });

  it('an activation link opened without a session is seen by the member’s next read', async () => {
    const member = await createMember(t, { activate: false });
    expect((await currentUser(t, member.cookie))?.status).toBe('not_confirmed');
    expect(isCached(member.cookie)).toBe(true);
    const token = await latestToken(t, member.email, 'activation');
    const activated = await call(t, 'GET', `/api/activate.php?token=${token}`, undefined, { ip: nextIp() });
    expect(activated.statusCode).toBe(302);
    expect((await currentUser(t, member.cookie))?.status).toBe('confirmed');
  });
});

describe('SessionCache', () => {
  const db = {} as Database;
  const found = { session: {}, user: {}, profile: {} };

  it('does not keep what a lookup found when a forget came while it ran', () => {
    const generation = sessionCache.begin();
    sessionCache.forgetMember(-1);
    sessionCache.set(db, 'race', -2, found, generation);
    expect(sessionCache.get(db, 'race')).toBeUndefined();
    sessionCache.set(db, 'race', -2, found, sessionCache.begin());
    expect(sessionCache.get(db, 'race')).toBe(found);
    // Another database's session is not this one's.
    expect(sessionCache.get({} as Database, 'race')).toBeUndefined();
    sessionCache.forgetMember(-2);
    expect(sessionCache.get(db, 'race')).toBeUndefined();
  });

  it('does not cache again, for a while, what a transaction forgot before its commit', () => {
    sessionCache.forgetMember(-3, true);
    sessionCache.set(db, 'held-member', -3, found, sessionCache.begin());
    expect(sessionCache.get(db, 'held-member')).toBeUndefined();
    sessionCache.forgetToken('held-token', true);
    sessionCache.set(db, 'held-token', -4, found, sessionCache.begin());
    expect(sessionCache.get(db, 'held-token')).toBeUndefined();
    // Forgotten after a commit: cached again by the next lookup.
    sessionCache.forgetMember(-5);
    sessionCache.set(db, 'after-commit', -5, found, sessionCache.begin());
    expect(sessionCache.get(db, 'after-commit')).toBe(found);
    sessionCache.forgetMember(-5);
  });
});

describe('sessions looked up together', () => {
  it('gives each call its own member, and none to an unknown, expired, suspended or banned session among them', async () => {
    const members = await Promise.all(Array.from({ length: 8 }, () => createMember(t)));
    const [expired, suspended, banned, suspensionOver] = members.slice(4);
    const now = t.ctx.now();
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(now.getTime() - 1000) })
      .where(eq(sessions.userId, expired.userId));
    await t.ctx.db.insert(memberSanctions).values([
      { userId: suspended.userId, kind: 'suspension', until: new Date(now.getTime() + 86_400_000) },
      { userId: banned.userId, kind: 'ban' },
      { userId: suspensionOver.userId, kind: 'suspension', until: new Date(now.getTime() - 1000) },
    ]);
    const tokenOf = (m: Member) => m.cookie.slice('auth.session='.length);
    const siteId = (await findAuth(t.ctx, tokenOf(members[0]), 1, true))?.user.siteId ?? 1;
    // Changes ask the database every time (never the cache): all at once, so they share lookups.
    const found = await Promise.all([
      ...members.map((m) => findAuth(t.ctx, tokenOf(m), siteId, true)),
      findAuth(t.ctx, 'x'.repeat(43), siteId, true),
    ]);
    expect(found.map((auth) => auth?.user.id ?? null)).toEqual([
      members[0].userId,
      members[1].userId,
      members[2].userId,
      members[3].userId,
      null,
      null,
      null,
      suspensionOver.userId,
      null,
    ]);
    for (const [i, auth] of found.slice(0, 4).entries()) expect(auth?.profile.id).toBe(members[i].profileId);
  });

  it('answers the same token asked at two moments with the answer of each moment', async () => {
    const member = await createMember(t);
    const tokenHash = tokenHashOf(member.cookie);
    const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    const before = new Date(session.expiresAt.getTime() - 1000);
    const after = new Date(session.expiresAt.getTime() + 1000);
    const answers = await findSessionAccounts(t.ctx.db, [
      { tokenHash, now: after },
      { tokenHash, now: before },
      { tokenHash: hashToken('unknown'), now: before },
    ]);
    expect(answers.map((found) => found?.user.id ?? null)).toEqual([null, member.userId, null]);
  });
});
