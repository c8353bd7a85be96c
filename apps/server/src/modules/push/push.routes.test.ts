import { randomUUID } from 'node:crypto';
import { pushPayloadSchema } from '@amora/contracts';
import { jobs, pushSubscriptions, serverKeys } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { AMORA, HERZ } from '../../test/accounts';
import { callAs, createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { metricValue } from '../../test/metrics';
import { markPresence, savePreferences } from '../notifications/notifications.service';
import { isAllowedEndpoint, notifyByPush, pruneSubscriptions, SUBSCRIPTION_UNSEEN_MS, saveSubscription } from './push.service';
import { browserSubscription, type PushReceiver, startPushReceiver, verifiedVapidKey } from './push-receiver';

const PUSH = '/api/user.php?push=1';

let t: TestApp;
let receiver: PushReceiver;
let next = 0;

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startPushReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
afterEach(() => {
  receiver.received.length = 0;
});

/** A browser's subscription pointing at the local receiver, stored for the member through the route. */
async function subscribe(who: Member) {
  const browser = browserSubscription(`${receiver.origin}/push/${++next}`);
  const res = await callAs(t, who, 'POST', PUSH, { subscription: browser.json });
  expect(res.statusCode, res.body).toBe(200);
  return browser;
}

/** The key with its last coordinate byte changed: no point of P-256 any more. */
function offCurve(p256dh: string): string {
  const bytes = Buffer.from(p256dh, 'base64url');
  bytes[64] ^= 1;
  return bytes.toString('base64url');
}

const stored = (userId: number) => t.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

async function publicKey(app = t.app, host = AMORA): Promise<string> {
  const res = await app.inject({ url: '/api/settings.php', headers: { host } });
  expect(res.statusCode).toBe(200);
  return res.json().push_public_key;
}

describe('POST /api/user.php?push=1', () => {
  it('stores the subscription per member, site and endpoint, and renews it when sent again', async () => {
    const member = await createMember(t);
    const browser = await subscribe(member);
    const [row] = await stored(member.userId);
    expect(row).toMatchObject({
      endpoint: browser.json.endpoint,
      p256dh: browser.json.keys.p256dh,
      auth: browser.json.keys.auth,
      siteId: 1,
    });
    t.clock.advance(3_600_000);
    const again = await callAs(t, member, 'POST', PUSH, { subscription: browser.json });
    expect(again.statusCode).toBe(200);
    const rows = await stored(member.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0].seenAt.getTime()).toBeGreaterThan(row.seenAt.getTime());
    t.clock.set(new Date());
  });

  it('keeps the login at POST /api/user.php without the query', async () => {
    const member = await createMember(t);
    const res = await callAs(t, null, 'POST', '/api/user.php', { email: member.email, password: member.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(member.userId);
  });

  it('is documented beside the login it shares its path with', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/api/user.php'].post.summary).toBe('Log in');
    expect(doc.paths['/api/user.php?push=1'].post.requestBody).toBeDefined();
  });

  it('needs a member', async () => {
    const browser = browserSubscription(`${receiver.origin}/push/visitor`);
    const res = await callAs(t, null, 'POST', PUSH, { subscription: browser.json });
    expect(res.statusCode).toBe(403);
    expect(res.json().authentication_required).toBe(true);
  });

  it.each([
    ['no keys', (s: ReturnType<typeof browserSubscription>['json']) => ({ endpoint: s.endpoint })],
    ['no auth secret', (s: ReturnType<typeof browserSubscription>['json']) => ({ endpoint: s.endpoint, keys: { p256dh: s.keys.p256dh } })],
    [
      'a short key',
      (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, keys: { ...s.keys, p256dh: s.keys.p256dh.slice(0, 40) } }),
    ],
    [
      'a compressed key',
      (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, keys: { ...s.keys, p256dh: `C${s.keys.p256dh.slice(1)}` } }),
    ],
    [
      'a key off the curve',
      (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, keys: { ...s.keys, p256dh: offCurve(s.keys.p256dh) } }),
    ],
    ['an endpoint that is no URL', (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, endpoint: 'not a url' })],
    ['an ftp endpoint', (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, endpoint: 'ftp://127.0.0.1/push' })],
    [
      'an endpoint on another host',
      (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, endpoint: 'https://push.example.com/x' }),
    ],
    ['an internal address', (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, endpoint: 'http://10.0.0.5:8080/push' })],
    ['the metadata address', (s: ReturnType<typeof browserSubscription>['json']) => ({ ...s, endpoint: 'http://169.254.169.254/latest' })],
  ])('refuses %s with a 400 and stores nothing', async (_label, change) => {
    const member = await createMember(t);
    const browser = browserSubscription(`${receiver.origin}/push/bad`);
    const res = await callAs(t, member, 'POST', PUSH, { subscription: change(browser.json) });
    expect(res.statusCode, res.body).toBe(400);
    expect(await stored(member.userId)).toHaveLength(0);
  });

  it('refuses fields it does not know', async () => {
    const member = await createMember(t);
    const browser = browserSubscription(`${receiver.origin}/push/extra`);
    const res = await callAs(t, member, 'POST', PUSH, { subscription: browser.json, userId: 1 });
    expect(res.statusCode).toBe(400);
    expect(await stored(member.userId)).toHaveLength(0);
  });

  it('drops the subscription with {subscription: null}, but only the member’s own', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const browser = await subscribe(owner);
    const theirs = await callAs(t, other, 'POST', PUSH, { subscription: null, endpoint: browser.json.endpoint });
    expect(theirs.statusCode).toBe(200);
    expect(await stored(owner.userId)).toHaveLength(1);
    const mine = await callAs(t, owner, 'POST', PUSH, { subscription: null, endpoint: browser.json.endpoint });
    expect(mine.statusCode).toBe(200);
    expect(await stored(owner.userId)).toHaveLength(0);
  });

  it('does not let another member take a subscription over with its endpoint alone', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const browser = await subscribe(owner);
    const forged = browserSubscription(browser.json.endpoint);
    const res = await callAs(t, other, 'POST', PUSH, { subscription: forged.json });
    expect(res.statusCode).toBe(200);
    expect(await stored(owner.userId)).toHaveLength(1);
    expect(await stored(other.userId)).toHaveLength(0);
    // The same browser (its keys) where the other member logged in: the subscription is theirs now.
    await callAs(t, other, 'POST', PUSH, { subscription: browser.json });
    expect(await stored(owner.userId)).toHaveLength(0);
    expect(await stored(other.userId)).toHaveLength(1);
  });

  it('stores it for the site it was sent on', async () => {
    const member = await createMember(t, { host: HERZ });
    await subscribe(member);
    const [row] = await stored(member.userId);
    expect(row.siteId).not.toBe(1);
  });
});

describe('endpoints the server may POST to', () => {
  it('in production: the push services over https only', () => {
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://web.push.apple.com/abc',
      'https://api.push.apple.com/abc',
    ]) {
      expect(isAllowedEndpoint(ok, true), ok).toBe(true);
    }
    for (const bad of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/abc',
      'https://fcm.googleapis.com.evil.example/abc',
      'https://evilfcm.googleapis.com/abc',
      'https://user:pw@fcm.googleapis.com/abc',
      'http://127.0.0.1:4000/push',
      'http://localhost/push',
      'https://10.0.0.1/push',
    ]) {
      expect(isAllowedEndpoint(bad, true), bad).toBe(false);
    }
  });

  it('outside production also this machine', () => {
    expect(isAllowedEndpoint('http://127.0.0.1:4000/push', false)).toBe(true);
    expect(isAllowedEndpoint('http://localhost:4000/push', false)).toBe(true);
    expect(isAllowedEndpoint('http://10.0.0.1/push', false)).toBe(false);
    expect(isAllowedEndpoint('http://192.168.1.1/push', false)).toBe(false);
  });

  it('a production server refuses a local endpoint (400) and stores nothing', async () => {
    const member = await createMember(t);
    const browser = browserSubscription(`${receiver.origin}/push/prod`);
    const production = { ...t.ctx, config: { ...t.ctx.config, isProduction: true } };
    await expect(
      saveSubscription(production, { userId: member.userId, siteId: 1 }, { subscription: browser.json }, ''),
    ).rejects.toMatchObject({
      statusCode: 400,
      extra: { field: 'subscription.endpoint' },
    });
    expect(await stored(member.userId)).toHaveLength(0);
  });
});

describe('the VAPID key', () => {
  it('is made once, kept in the database, and the same for another process on it (and after a restart)', async () => {
    const key = await publicKey();
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const [row] = await t.ctx.db.select().from(serverKeys).where(eq(serverKeys.name, 'vapid'));
    expect(row.publicKey).toBe(key);
    // A second app on the same database: nothing of the first one's memory (its database object is another).
    const second = await buildApp({ ...t.ctx, db: new Proxy(t.ctx.db, {}) }, { logger: false });
    await second.ready();
    try {
      expect(await publicKey(second)).toBe(key);
      expect(await publicKey(second, HERZ)).toBe(key);
    } finally {
      await second.close();
    }
    expect(await t.ctx.db.select().from(serverKeys).where(eq(serverKeys.name, 'vapid'))).toHaveLength(1);
  });
});

describe('the push of a like, a match and a message', () => {
  it('is a job only for a member with a browser that takes pushes', async () => {
    const pushJobs = async (who: Member) =>
      (await t.ctx.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.name, 'push.notify'))).filter(
        (job) => (job.payload as { userId: number }).userId === who.userId,
      );
    const [writer, without, withBrowser] = [await createMember(t), await createMember(t), await createMember(t)];
    await subscribe(withBrowser);
    for (const to of [without, withBrowser]) {
      const res = await callAs(t, writer, 'POST', '/api/messages.php', {
        profile: to.profileId,
        body: 'Hello',
        client_id: randomUUID(),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await pushJobs(without)).toEqual([]);
    expect(await pushJobs(withBrowser)).toHaveLength(1);
    await t.ctx.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
  });

  it('reaches the subscription encrypted, signed with the key of the settings, with TTL, urgency and topic', async () => {
    const liked = await createMember(t, { name: 'Robin' });
    const liker = await createMember(t, { name: 'Anna' });
    const browser = await subscribe(liked);
    const res = await callAs(t, liker, 'POST', '/api/like.php', { profile_id: liked.profileId, source: 'profile' });
    expect(res.statusCode, res.body).toBe(200);
    await t.ctx.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    const [push] = receiver.received;
    expect(push.path).toBe(new URL(browser.json.endpoint).pathname);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.ttl).toBe(String(4 * 86_400));
    expect(push.headers.urgency).toBe('normal');
    expect(push.headers.topic).toBe('likes');
    expect(verifiedVapidKey(push.headers.authorization, browser.json.endpoint)).toBe(await publicKey());
    const payload = pushPayloadSchema.parse(JSON.parse(browser.decrypt(push.body)));
    expect(payload).toMatchObject({
      title: 'Amora',
      body: 'Anna likes you',
      tag: 'likes',
      data: {
        event: 'like',
        badge: 1,
        checkUrl: expect.stringMatching(/^http:\/\/[^/]+\/likes$/),
        openUrl: expect.stringMatching(/\/likes$/),
      },
    });
    expect(payload.icon).toMatch(/\/api\/assets\/app-icon\/192\.png$/);
  });

  it('a match says so, high urgency, topic per profile; in the member’s language', async () => {
    const first = await createMember(t, { name: 'Kim' });
    const second = await createMember(t, { name: 'Lou' });
    await callAs(t, first, 'PUT', '/api/user.php', { language: 'de' });
    await callAs(t, first, 'POST', '/api/like.php', { profile_id: second.profileId, source: 'profile' });
    const browser = await subscribe(first);
    await t.ctx.jobs.runDue();
    receiver.received.length = 0;
    await callAs(t, second, 'POST', '/api/like.php', { profile_id: first.profileId, source: 'profile' });
    await t.ctx.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    const [push] = receiver.received;
    expect(push.headers.urgency).toBe('high');
    expect(push.headers.topic).toBe(`m${second.profileId}`);
    const payload = pushPayloadSchema.parse(JSON.parse(browser.decrypt(push.body)));
    expect(payload.body).toBe('Es ist ein Match mit Lou');
    expect(payload.data.openUrl).toMatch(new RegExp(`/members/${second.profileId}$`));
  });

  it('a message from a fictional profile names it as such and never shows the text', async () => {
    const member = await createMember(t);
    const browser = await subscribe(member);
    const anna = await createProfile(t, { name: 'Anna', isFictional: true });
    await notifyByPush(t.ctx, {
      userId: member.userId,
      type: 'new_messages',
      event: 'message',
      fromProfileId: anna.id,
      conversationId: 4242,
    });
    const [push] = receiver.received;
    expect(push.headers.urgency).toBe('high');
    expect(push.headers.ttl).toBe('86400');
    expect(push.headers.topic).toBe('c4242');
    const payload = pushPayloadSchema.parse(JSON.parse(browser.decrypt(push.body)));
    expect(payload.body).toMatch(/^Anna \(.+\) sent you a message$/);
    expect(payload.tag).toBe('c4242');
    expect(payload.data.checkUrl).toMatch(new RegExp(`/members/${anna.id}/chat$`));
  });

  it('goes to every subscription of the member on that site', async () => {
    const member = await createMember(t);
    const phone = await subscribe(member);
    const laptop = await subscribe(member);
    const anna = await createProfile(t, { name: 'Anna' });
    await notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id });
    expect(receiver.received.map((push) => push.path).sort()).toEqual(
      [new URL(phone.json.endpoint).pathname, new URL(laptop.json.endpoint).pathname].sort(),
    );
  });

  it('sends nothing while the member is on the site, nor for a type turned off', async () => {
    const member = await createMember(t);
    await subscribe(member);
    const anna = await createProfile(t, { name: 'Anna' });
    await markPresence(t.ctx, member.userId, true);
    await notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id });
    expect(receiver.received).toHaveLength(0);
    await markPresence(t.ctx, member.userId, false);
    await savePreferences(t.ctx, member.userId, [{ type: 'like', channel: 'push', enabled: false }]);
    await notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id });
    expect(receiver.received).toHaveLength(0);
    await notifyByPush(t.ctx, { userId: member.userId, type: 'new_messages', event: 'message', fromProfileId: anna.id, conversationId: 1 });
    expect(receiver.received).toHaveLength(1);
  });

  it('makes one push of 20 messages in a minute while the member is away; a match always goes; a visit opens the next', async () => {
    const member = await createMember(t);
    await subscribe(member);
    const anna = await createProfile(t, { name: 'Anna' });
    const message = {
      userId: member.userId,
      type: 'new_messages' as const,
      event: 'message' as const,
      fromProfileId: anna.id,
      conversationId: 7,
    };
    try {
      for (let i = 0; i < 20; i++) {
        await notifyByPush(t.ctx, message);
        t.clock.advance(3_000);
      }
      expect(receiver.received).toHaveLength(1);
      await notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'match', fromProfileId: anna.id });
      expect(receiver.received).toHaveLength(2);
      // The member came and went: the next message pushes again.
      await markPresence(t.ctx, member.userId, true);
      t.clock.advance(1_000);
      await markPresence(t.ctx, member.userId, false);
      t.clock.advance(1_000);
      await notifyByPush(t.ctx, message);
      expect(receiver.received).toHaveLength(3);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('drops a subscription the push service says is gone (410, 404)', async () => {
    const member = await createMember(t);
    const gone = await subscribe(member);
    const missing = await subscribe(member);
    receiver.answer(new URL(gone.json.endpoint).pathname, 410);
    receiver.answer(new URL(missing.json.endpoint).pathname, 404);
    const anna = await createProfile(t, { name: 'Anna' });
    await notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id });
    expect(receiver.received).toHaveLength(2);
    expect(await stored(member.userId)).toHaveLength(0);
  });

  it('backs off a subscription on 429 until its Retry-After', async () => {
    const member = await createMember(t);
    const busy = await subscribe(member);
    receiver.answer(new URL(busy.json.endpoint).pathname, 429, { 'retry-after': '120' });
    const anna = await createProfile(t, { name: 'Anna' });
    const notice = { userId: member.userId, type: 'like' as const, event: 'like' as const, fromProfileId: anna.id };
    await notifyByPush(t.ctx, notice);
    expect(receiver.received).toHaveLength(1);
    const [row] = await stored(member.userId);
    expect(row.retryAfter?.getTime()).toBeGreaterThan(Date.now() + 100_000);
    await notifyByPush(t.ctx, notice);
    expect(receiver.received).toHaveLength(1);
    receiver.answer(new URL(busy.json.endpoint).pathname, 201);
    t.clock.advance(121_000);
    try {
      await notifyByPush(t.ctx, notice);
      expect(receiver.received).toHaveLength(2);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('fails (the job is tried again) when the push service fails', async () => {
    const member = await createMember(t);
    const broken = await subscribe(member);
    receiver.answer(new URL(broken.json.endpoint).pathname, 503);
    const anna = await createProfile(t, { name: 'Anna' });
    await expect(notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id })).rejects.toThrow(
      /503/,
    );
    expect(await stored(member.userId)).toHaveLength(1);
  });

  it('counts each push by outcome: sent, gone, deferred, failed', async () => {
    const count = (outcome: string) => metricValue(t.ctx.metrics, 'amora_pushes_total', { outcome });
    const before = Object.fromEntries(await Promise.all(['sent', 'gone', 'deferred', 'failed'].map(async (o) => [o, await count(o)])));
    const member = await createMember(t);
    await subscribe(member);
    const gone = await subscribe(member);
    const busy = await subscribe(member);
    const broken = await subscribe(member);
    receiver.answer(new URL(gone.json.endpoint).pathname, 410);
    receiver.answer(new URL(busy.json.endpoint).pathname, 429, { 'retry-after': '120' });
    receiver.answer(new URL(broken.json.endpoint).pathname, 500);
    const anna = await createProfile(t, { name: 'Anna' });
    await expect(notifyByPush(t.ctx, { userId: member.userId, type: 'like', event: 'like', fromProfileId: anna.id })).rejects.toThrow(
      /500/,
    );
    for (const outcome of ['sent', 'gone', 'deferred', 'failed']) expect(await count(outcome), outcome).toBe(before[outcome] + 1);
  });
});

describe('pruning', () => {
  it('drops the subscriptions unseen for 60 days', async () => {
    const stale = await createMember(t);
    await subscribe(stale);
    t.clock.advance(SUBSCRIPTION_UNSEEN_MS / 2);
    const fresh = await createMember(t);
    await subscribe(fresh);
    t.clock.advance(SUBSCRIPTION_UNSEEN_MS / 2 + 1000);
    try {
      expect(await pruneSubscriptions(t.ctx)).toBeGreaterThanOrEqual(1);
      expect(await stored(stale.userId)).toHaveLength(0);
      expect(await stored(fresh.userId)).toHaveLength(1);
    } finally {
      t.clock.set(new Date());
    }
  });
});
