import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountTokens, creditLedger, discountCodes, outboxEmails, profiles, sessions, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  currentUser,
  DEMO,
  DEMO_HERZ,
  HERZ,
  latestToken,
  login,
  mailsTo,
  sessionCookie,
  signup,
  signupBody,
  userRow,
} from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';
import { purgeDeletedAccounts } from './deletion.service';

const ON_REDIS = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

const DAY = 86_400_000;

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-deletion-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function remove(cookie: string | undefined, body: Record<string, unknown>, ip: string) {
  return call(t, 'DELETE', '/api/user.php', body, { cookie, ip });
}

async function rowsOf(userId: number) {
  const where = <T extends { userId: unknown }>(table: T) => eq(table.userId as never, userId);
  return {
    users: await t.ctx.db.select().from(users).where(eq(users.id, userId)),
    profiles: await t.ctx.db.select().from(profiles).where(where(profiles)),
    sessions: await t.ctx.db.select().from(sessions).where(where(sessions)),
    tokens: await t.ctx.db.select().from(accountTokens).where(where(accountTokens)),
    outbox: await t.ctx.db.select().from(outboxEmails).where(where(outboxEmails)),
    discounts: await t.ctx.db.select().from(discountCodes).where(where(discountCodes)),
  };
}

/** A member who opened the activation link. */
async function confirmedMember(ip: string) {
  const member = await signup(t, {}, { ip });
  const res = await call(t, 'GET', `/api/activate.php?token=${await latestToken(t, member.email, 'activation')}`);
  expect(res.headers.location).toBe('/activate/done');
  return member;
}

describe('POST /api/delete-discount.php', () => {
  it("offers a code with the site's delete discount, the same one on a second call", async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.7.0.1' }));
    const first = await call(t, 'POST', '/api/delete-discount.php', { password: DEMO.password }, { cookie, ip: '10.7.0.1' });
    expect(first.statusCode).toBe(200);
    const offer = first.json();
    expect(offer).toMatchObject({ code: expect.stringMatching(/^STAY[A-Z0-9]{8}$/), value_percentage: 30 });
    expect(new Date(offer.expires).getTime()).toBeGreaterThan(t.clock.now().getTime());

    const second = await call(t, 'POST', '/api/delete-discount.php', { password: DEMO.password }, { cookie, ip: '10.7.0.1' });
    expect(second.json()).toEqual(offer);
    const [demo] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.email));
    expect(await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.userId, demo.id))).toHaveLength(1);

    const herz = sessionCookie(await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { ip: '10.7.0.1', host: HERZ }));
    const herzOffer = await call(
      t,
      'POST',
      '/api/delete-discount.php',
      { password: DEMO_HERZ.password },
      { cookie: herz, ip: '10.7.0.1', host: HERZ },
    );
    expect(herzOffer.json()).toMatchObject({ value_percentage: 40 });
    expect(herzOffer.json().code).not.toBe(offer.code);
  });

  it('gives calls made at once the one code', async () => {
    const member = await signup(t, {}, { ip: '10.7.0.3' });
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        call(t, 'POST', '/api/delete-discount.php', { password: member.password }, { cookie: member.cookie, ip: '10.7.0.3' }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.json().code)).size).toBe(1);
    expect(await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.userId, member.user.id))).toHaveLength(1);
  });

  it('is offered once per member, ever: no new code after the first expired, and none of another member', async () => {
    const member = await signup(t, {}, { ip: '10.7.0.4' });
    const first = await call(
      t,
      'POST',
      '/api/delete-discount.php',
      { password: member.password },
      { cookie: member.cookie, ip: '10.7.0.4' },
    );
    expect(first.statusCode, first.body).toBe(200);
    // Its 30 days run out: asking again gives no new code.
    await t.ctx.db
      .update(discountCodes)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(discountCodes.userId, member.user.id));
    const again = await call(
      t,
      'POST',
      '/api/delete-discount.php',
      { password: member.password },
      { cookie: member.cookie, ip: '10.7.0.4' },
    );
    expect([again.statusCode, again.json().error]).toEqual([404, 'not_found']);
    expect(await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.userId, member.user.id))).toHaveLength(1);
    // Another member's code is not this member's to use.
    const other = await signup(t, {}, { ip: '10.7.0.5' });
    const theirs = (
      await call(t, 'POST', '/api/delete-discount.php', { password: other.password }, { cookie: other.cookie, ip: '10.7.0.5' })
    ).json();
    const looked = await call(t, 'GET', `/api/discountcode.php?code=${theirs.code}`, undefined, { cookie: member.cookie, ip: '10.7.0.4' });
    expect([looked.statusCode, looked.json().error]).toEqual([404, 'discount_not_found']);
  });

  it('is not had without the password of a deletion under way, nor with bad input', async () => {
    const member = await signup(t, {}, { ip: '10.7.0.6' });
    const ask = (body: unknown) => call(t, 'POST', '/api/delete-discount.php', body, { cookie: member.cookie, ip: '10.7.0.6' });
    const wrong = await ask({ password: 'not-my-password' });
    expect([wrong.statusCode, wrong.json().error, wrong.json().field]).toEqual([403, 'wrong_password', 'password']);
    for (const body of [undefined, {}, { password: '' }, { password: 'x'.repeat(129) }, { password: 5 }]) {
      expect((await ask(body)).statusCode).toBe(400);
    }
    expect(await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.userId, member.user.id))).toHaveLength(0);
  });

  it('needs a session', async () => {
    const res = await call(t, 'POST', '/api/delete-discount.php', { password: 'whatever' }, { ip: '10.7.0.2' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ authentication_required: true });
  });
});

describe('DELETE /api/user.php', () => {
  it('refuses a wrong password with a 403 and changes nothing', async () => {
    const member = await signup(t, {}, { ip: '10.7.1.1' });
    const res = await remove(member.cookie, { password: 'not-the-password', reason: 'other' }, '10.7.1.1');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'wrong_password', field: 'password' });
    const row = await userRow(t, member.user.id);
    expect(row).toMatchObject({ status: 'not_confirmed', deletedAt: null, deletionReason: null });
    expect(await currentUser(t, member.cookie)).not.toBeNull();
    expect(await mailsTo(t, member.email, 'deleted')).toHaveLength(0);
  });

  it('needs a session, a reason and the client header', async () => {
    const anonymous = await remove(undefined, { password: 'whatever', reason: 'other' }, '10.7.1.2');
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json()).toMatchObject({ authentication_required: true });

    const member = await signup(t, {}, { ip: '10.7.1.2' });
    const noReason = await remove(member.cookie, { password: member.password }, '10.7.1.2');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().field).toBe('reason');
    const badReason = await remove(member.cookie, { password: member.password, reason: 'bored' }, '10.7.1.2');
    expect(badReason.statusCode).toBe(400);
    expect(badReason.json().field).toBe('reason');
    const noHeader = await call(
      t,
      'DELETE',
      '/api/user.php',
      { password: member.password, reason: 'other' },
      {
        cookie: member.cookie,
        ip: '10.7.1.2',
        client: false,
      },
    );
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().error).toBe('client_header_required');
    expect((await userRow(t, member.user.id)).status).toBe('not_confirmed');
  });

  it('refuses a reason text that is too long or holds a NUL byte with a 400 naming reason_text, and deletes nothing', async () => {
    const member = await signup(t, {}, { ip: '10.7.1.3' });
    const cases: [string, string][] = [
      ['x'.repeat(1001), 'auth.errors.reasonTextLength'],
      ['Bye\u0000now', 'errors.invalidCharacters'],
    ];
    for (const [text, key] of cases) {
      const res = await remove(member.cookie, { password: member.password, reason: 'other', reason_text: text }, '10.7.1.3');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'reason_text', message_key: key });
    }
    expect((await remove(member.cookie, { password: member.password, reason: 'other', reason_text: 42 }, '10.7.1.3')).json()).toMatchObject(
      {
        field: 'reason_text',
      },
    );
    // 1000 characters after trimming are fine; nothing was deleted by the refused calls before.
    expect(await userRow(t, member.user.id)).toMatchObject({ status: 'not_confirmed', deletedAt: null });
    expect(await currentUser(t, member.cookie)).not.toBeNull();
    const ok = await remove(
      member.cookie,
      { password: member.password, reason: 'other', reason_text: ` ${'y'.repeat(1000)} ` },
      '10.7.1.3',
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('deletes the account, ends every session and mails a reactivation link that restores it', async () => {
    const member = await confirmedMember('10.7.2.1');
    const other = sessionCookie(await login(t, member.email, member.password, { ip: '10.7.2.1' }));

    const res = await remove(
      member.cookie,
      { password: member.password, reason: 'found_partner', reason_text: ' Met someone ' },
      '10.7.2.1',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, reactivation_days: 14 });
    expect(res.cookies.find((c) => c.name === 'auth.session')?.value ?? '').toBe('');

    expect(await currentUser(t, member.cookie)).toBeNull();
    expect(await currentUser(t, other)).toBeNull();
    const row = await userRow(t, member.user.id);
    expect(row).toMatchObject({ status: 'deleted', deletionReason: 'found_partner', deletionReasonText: 'Met someone' });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect((await rowsOf(member.user.id)).sessions).toHaveLength(0);

    const mails = await mailsTo(t, member.email, 'deleted');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/http:\/\/amora\.localhost:3000\/account-deleted\?token=[A-Za-z0-9_-]{43}/);

    // The right password only tells them the account is still being removed.
    const again = await login(t, member.email, member.password, { ip: '10.7.2.2' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'account_being_removed', message_key: 'auth.errors.accountBeingRemoved' });
    expect(again.json().message).toMatch(/still being removed/);
    expect(again.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
    // A wrong password says nothing about the account.
    const wrong = await login(t, member.email, 'not-the-password', { ip: '10.7.2.2' });
    expect(wrong.statusCode).toBe(401);

    const taken = await call(t, 'POST', '/api/signup.php', signupBody({ email: member.email }), { ip: '10.7.2.3' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'account_being_removed', field: 'email' });

    const token = await latestToken(t, member.email, 'deleted');
    const back = await call(t, 'POST', '/api/reactivate.php', { token }, { ip: '10.7.2.4' });
    expect(back.statusCode).toBe(200);
    expect(back.json().user).toMatchObject({ id: member.user.id, status: 'confirmed', profile: { status: 'active' } });
    const restored = await userRow(t, member.user.id);
    expect(restored).toMatchObject({ status: 'confirmed', deletedAt: null, deletionReason: null, deletionReasonText: null });
    expect((await currentUser(t, sessionCookie(back)))?.id).toBe(member.user.id);
    expect(await mailsTo(t, member.email, 'reactivated')).toHaveLength(1);
    expect((await login(t, member.email, member.password, { ip: '10.7.2.4' })).statusCode).toBe(200);

    const twice = await call(t, 'POST', '/api/reactivate.php', { token }, { ip: '10.7.2.4' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe('link_invalid');
  });

  it('brings a member who never confirmed back as not confirmed; the login mails a fresh link', async () => {
    const member = await signup(t, {}, { ip: '10.7.3.1' });
    expect((await remove(member.cookie, { password: member.password, reason: 'taking_break' }, '10.7.3.1')).statusCode).toBe(200);
    expect(await mailsTo(t, member.email, 'deleted')).toHaveLength(1);

    expect((await login(t, member.email, member.password, { ip: '10.7.3.2' })).statusCode).toBe(409);
    const mails = await mailsTo(t, member.email, 'deleted');
    expect(mails).toHaveLength(2);

    const back = await call(t, 'POST', '/api/reactivate.php', { token: await latestToken(t, member.email, 'deleted') }, { ip: '10.7.3.3' });
    expect(back.statusCode).toBe(200);
    expect(back.json().user.status).toBe('not_confirmed');
    expect((await userRow(t, member.user.id)).status).toBe('not_confirmed');
  });

  it('refuses an unknown reactivation token, and one of another site', async () => {
    const unknown = await call(t, 'POST', '/api/reactivate.php', { token: 'z'.repeat(43) }, { ip: '10.7.3.4' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'link_invalid', message: 'Link expired or invalid, request a new email' });

    const member = await signup(t, {}, { ip: '10.7.3.4' });
    expect((await remove(member.cookie, { password: member.password, reason: 'privacy' }, '10.7.3.4')).statusCode).toBe(200);
    const token = await latestToken(t, member.email, 'deleted');
    const cross = await call(t, 'POST', '/api/reactivate.php', { token }, { ip: '10.7.3.4', host: HERZ });
    expect(cross.statusCode).toBe(400);
    expect((await userRow(t, member.user.id)).status).toBe('deleted');
  });
});

describe('purgeDeletedAccounts', () => {
  it('removes an account for good 14 days after the deletion, keeping its ledger rows without the user', async () => {
    const member = await confirmedMember('10.7.4.1');
    const keeper = await signup(t, {}, { ip: '10.7.4.1' });
    await call(t, 'POST', '/api/delete-discount.php', { password: member.password }, { cookie: member.cookie, ip: '10.7.4.1' });
    const media = join(dataDir, 'media', String(member.user.id));
    const keeperMedia = join(dataDir, 'media', String(keeper.user.id));
    for (const dir of [media, keeperMedia]) {
      mkdirSync(join(dir, 'photos'), { recursive: true });
      writeFileSync(join(dir, 'photos', 'a.jpg'), 'jpeg');
    }

    expect((await remove(member.cookie, { password: member.password, reason: 'privacy' }, '10.7.4.1')).statusCode).toBe(200);
    const before = await rowsOf(member.user.id);
    expect(before.users).toHaveLength(1);
    expect(before.profiles).toHaveLength(1);
    expect(before.tokens.length).toBeGreaterThan(0);
    expect(before.outbox.length).toBeGreaterThanOrEqual(2);
    expect(before.discounts).toHaveLength(1);
    const ledgerIds = (await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, member.user.id))).map((r) => r.id);
    expect(ledgerIds).toHaveLength(1);

    t.clock.advance(13 * DAY + 23 * 3_600_000);
    expect(await purgeDeletedAccounts(t.ctx)).toBe(0);
    expect((await rowsOf(member.user.id)).users).toHaveLength(1);
    expect(existsSync(media)).toBe(true);

    t.clock.advance(DAY + 2 * 3_600_000);
    // Past the window the link no longer works and the login still tells them it is being removed.
    const late = await call(t, 'POST', '/api/reactivate.php', { token: await latestToken(t, member.email, 'deleted') }, { ip: '10.7.4.2' });
    expect(late.statusCode).toBe(400);
    expect((await login(t, member.email, member.password, { ip: '10.7.4.2' })).statusCode).toBe(409);

    // Every account deleted in this file so far (and not reactivated) is due now, this one among them.
    const due = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.status, 'deleted'));
    expect(due.map((u) => u.id)).toContain(member.user.id);
    expect(await purgeDeletedAccounts(t.ctx)).toBe(due.length);
    expect(await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.status, 'deleted'))).toEqual([]);
    const after = await rowsOf(member.user.id);
    expect(after).toEqual({ users: [], profiles: [], sessions: [], tokens: [], outbox: [], discounts: [] });
    expect(await mailsTo(t, member.email)).toHaveLength(0);
    for (const id of ledgerIds) {
      const [row] = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.id, id));
      expect(row).toMatchObject({ userId: null, delta: 20, reason: 'signup' });
    }
    expect(existsSync(media)).toBe(false);
    expect(existsSync(join(keeperMedia, 'photos', 'a.jpg'))).toBe(true);
    expect((await userRow(t, keeper.user.id)).status).toBe('not_confirmed');

    // The address is free again.
    const fresh = await call(t, 'POST', '/api/signup.php', signupBody({ email: member.email }), { ip: '10.7.4.3' });
    expect(fresh.statusCode).toBe(200);
    expect(await purgeDeletedAccounts(t.ctx)).toBe(0);
  });
});

describe('password checks of a signed-in member', () => {
  it('evaluate at most five guesses an hour per account, across the deletion, its discount and the email change, even at once', async () => {
    const member = await confirmedMember('10.7.5.1');
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? call(t, 'POST', '/api/delete-discount.php', { password: `wrong-guess-${i}` }, { cookie: member.cookie, ip: '10.7.5.1' })
          : remove(member.cookie, { password: `wrong-guess-${i}`, reason: 'other' }, '10.7.5.1'),
      ),
    );
    const evaluated = guesses.filter((r) => r.statusCode === 403);
    const refused = guesses.filter((r) => r.statusCode === 429);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(evaluated.length + refused.length).toBe(100);
    for (const res of evaluated) expect(res.json()).toMatchObject({ error: 'wrong_password', field: 'password' });
    expect(refused[0].json()).toMatchObject({
      error: 'rate_limited',
      message: 'Too many attempts, please try again later.',
      message_key: 'auth.errors.tooManyRequests',
      retry_after_seconds: expect.any(Number),
    });
    // The right password is not evaluated either until the hour is over, in any of the three forms.
    const right = { password: member.password };
    expect((await call(t, 'POST', '/api/delete-discount.php', right, { cookie: member.cookie, ip: '10.7.5.1' })).statusCode).toBe(429);
    expect((await remove(member.cookie, { ...right, reason: 'other' }, '10.7.5.1')).statusCode).toBe(429);
    const mailChange = { ...right, new_email: `moved-${member.user.id}@example.com` };
    expect((await call(t, 'POST', '/api/mail-change.php', mailChange, { cookie: member.cookie, ip: '10.7.5.1' })).statusCode).toBe(429);
    expect(await userRow(t, member.user.id)).toMatchObject({ deletedAt: null });
    expect(await t.ctx.db.select().from(discountCodes).where(eq(discountCodes.userId, member.user.id))).toHaveLength(0);
    // Another member's allowance is their own.
    const other = await signup(t, {}, { ip: '10.7.5.2' });
    const theirs = await call(
      t,
      'POST',
      '/api/delete-discount.php',
      { password: other.password },
      { cookie: other.cookie, ip: '10.7.5.2' },
    );
    expect(theirs.statusCode, theirs.body).toBe(200);
    if (ON_REDIS) return; // Redis keeps real time; the harness clock drives the database limiter only.
    t.clock.advance(3_600_000 + 1000);
    const later = await call(t, 'POST', '/api/delete-discount.php', right, { cookie: member.cookie, ip: '10.7.5.1' });
    expect(later.statusCode, later.body).toBe(200);
  });
});
