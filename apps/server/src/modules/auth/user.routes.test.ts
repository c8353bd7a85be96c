import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, currentUser, latestToken, login, sessionCookie, signup } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The `user` object of spec §3 is the same in every answer that carries it: GET user.php and the POSTs that log a
 * member in (login, signup, password reset, reactivation). like_new is the profile's likes not looked at yet.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// Signups are limited per address, and on the postgres run the limits live in Redis beyond this app.
let nextAddress = randomInt(1, 2 ** 16 - 100);
const nextIp = () => {
  const n = nextAddress++;
  return `10.${200 + (n >> 14)}.${(n >> 6) & 255}.${(n & 63) + 1}`;
};

/** A member who signed up and opened the activation link. */
async function activeMember() {
  const ip = nextIp();
  const member = await signup(t, {}, { ip });
  const res = await call(t, 'GET', `/api/activate.php?token=${await latestToken(t, member.email, 'activation')}`, undefined, { ip });
  expect(res.headers.location).toBe('/activate/done');
  return { ...member, ip };
}

/** `from` likes `to` (a new like, not looked at yet). */
async function like(from: { cookie: string; ip: string }, to: { user: { profile: { id: number } } }) {
  const res = await call(
    t,
    'POST',
    '/api/like.php',
    { profile_id: to.user.profile.id, source: 'profile' },
    { cookie: from.cookie, ip: from.ip },
  );
  expect(res.statusCode, res.body).toBe(200);
}

describe('profile.like_new in the user object', () => {
  it('counts the likes received in the login answer, as GET user.php does', async () => {
    const member = await activeMember();
    await like(await activeMember(), member);
    await like(await activeMember(), member);

    const res = await login(t, member.email, member.password, { ip: member.ip });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.profile.like_new).toBe(2);
    expect(await currentUser(t, sessionCookie(res))).toEqual(res.json().user);
  });

  it('counts them in the answer to a new password from a reset link', async () => {
    const member = await activeMember();
    await like(await activeMember(), member);
    expect((await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: member.ip })).statusCode).toBe(200);
    await t.ctx.mailer.idle();

    const token = await latestToken(t, member.email, 'reset');
    const res = await call(
      t,
      'PUT',
      '/api/password-reset.php',
      { token, password: 'another-long-password', password_confirm: 'another-long-password' },
      { ip: member.ip },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.profile.like_new).toBe(1);
    expect(await currentUser(t, sessionCookie(res))).toEqual(res.json().user);
  });

  it('counts them in the answer to a reactivation', async () => {
    const member = await activeMember();
    await like(await activeMember(), member);
    const removed = await call(
      t,
      'DELETE',
      '/api/user.php',
      { password: member.password, reason: 'privacy' },
      { cookie: member.cookie, ip: member.ip },
    );
    expect(removed.statusCode, removed.body).toBe(200);

    const token = await latestToken(t, member.email, 'deleted');
    const res = await call(t, 'POST', '/api/reactivate.php', { token }, { ip: member.ip });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.profile.like_new).toBe(1);
    expect(await currentUser(t, sessionCookie(res))).toEqual(res.json().user);
  });

  it('is 0 in the signup answer, and a like looked at no longer counts', async () => {
    const ip = nextIp();
    const member = await signup(t, {}, { ip });
    expect(member.user.profile).toMatchObject({ like_new: 0 });
    expect(await currentUser(t, member.cookie)).toEqual(member.res.json().user);

    const liked = await activeMember();
    const liker = await activeMember();
    await like(liker, liked);
    const seen = await call(
      t,
      'POST',
      '/api/likes-seen.php',
      { profile_id: liker.user.profile.id },
      { cookie: liked.cookie, ip: liked.ip },
    );
    expect(seen.statusCode, seen.body).toBe(200);
    const res = await login(t, liked.email, liked.password, { ip: liked.ip });
    expect(res.json().user.profile.like_new).toBe(0);
  });
});
