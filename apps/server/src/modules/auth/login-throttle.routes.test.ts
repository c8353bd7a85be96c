import * as argon2 from '@node-rs/argon2';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { login, signup, uniqueEmail } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

// Counts how many passwords the server actually checks, at the hashing library (it still does the work).
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});
const verifyCalls = () => vi.mocked(argon2.verify).mock.calls.length;

const ON_REDIS = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);
/** Wrong guesses one address may have evaluated for one account in 15 minutes. */
const PER_ADDRESS = 5;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.mocked(argon2.verify).mockClear();
});

function statuses(responses: { statusCode: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

describe('login guesses arriving at once', () => {
  it('evaluates at most five of 50 parallel wrong guesses, and the right password is refused after them', async () => {
    const member = await signup(t, {}, { ip: '10.60.0.1' });
    vi.mocked(argon2.verify).mockClear();
    const ip = '10.60.0.2';
    const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => login(t, member.email, `wrong-guess-${i}`, { ip })));
    expect(verifyCalls()).toBeLessThanOrEqual(PER_ADDRESS);
    const counts = statuses(burst);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(PER_ADDRESS - 1);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(50);
    for (const res of burst.filter((r) => r.statusCode === 429)) {
      expect(res.json()).toMatchObject({ error: 'login_blocked', message_key: 'auth.errors.loginBlocked', minutes: expect.any(Number) });
    }

    const before = verifyCalls();
    const right = await login(t, member.email, member.password, { ip });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/^Too many wrong attempts, the account stays blocked for \d+ minutes$/);
    expect(right.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
    // Refused before its password was looked at.
    expect(verifyCalls()).toBe(before);
  });

  it('evaluates at most five wrong guesses when the right one is in the same burst', async () => {
    const member = await signup(t, {}, { ip: '10.60.1.1' });
    const ip = '10.60.1.2';
    const guesses = Array.from({ length: 50 }, (_, i) => `wrong-guess-${i}`);
    guesses.splice(25, 0, member.password);
    vi.mocked(argon2.verify).mockClear();
    const burst = await Promise.all(guesses.map((password) => login(t, member.email, password, { ip })));
    const results = await Promise.all(vi.mocked(argon2.verify).mock.results.map((r) => r.value as Promise<boolean>));
    const wrongEvaluated = results.filter((ok) => !ok).length;
    expect(wrongEvaluated).toBeLessThanOrEqual(PER_ADDRESS);
    expect(verifyCalls()).toBeLessThanOrEqual(PER_ADDRESS + 1);
    // The right guess got in only if it was among the guesses the allowance let through.
    const accepted = burst.filter((r) => r.statusCode === 200);
    expect(accepted.length).toBeLessThanOrEqual(1);
    if (accepted.length === 1) expect(results.filter(Boolean)).toHaveLength(1);
    expect(statuses(burst)[429] ?? 0).toBeGreaterThanOrEqual(50 - PER_ADDRESS);
  });
});

describe('a stranger cannot lock the owner out', () => {
  it('refuses the attacker’s address after five wrong passwords while the owner logs in from another address', async () => {
    const member = await signup(t, {}, { ip: '10.61.0.1' });
    const attacker = '10.61.0.66';
    for (let i = 1; i <= PER_ADDRESS - 1; i++) {
      expect((await login(t, member.email, `wrong-${i}`, { ip: attacker })).statusCode, `attempt ${i}`).toBe(401);
    }
    const fifth = await login(t, member.email, 'wrong-5', { ip: attacker });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: 'login_blocked',
      message: 'Too many wrong attempts, the account stays blocked for 15 minutes',
      minutes: 15,
    });
    // The attacker keeps trying: refused each time, without a look at the password.
    vi.mocked(argon2.verify).mockClear();
    for (let i = 0; i < 30; i++) expect((await login(t, member.email, `more-${i}`, { ip: attacker })).statusCode).toBe(429);
    expect(verifyCalls()).toBe(0);
    // Even the right password from the attacker's address waits.
    expect((await login(t, member.email, member.password, { ip: attacker })).statusCode).toBe(429);

    const owner = await login(t, member.email, member.password, { ip: '10.61.0.7' });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe(member.email);
  });

  it('counts an IPv6 attacker by its /64, so rotating addresses within it does not help', async () => {
    const member = await signup(t, {}, { ip: '10.61.1.1' });
    for (let i = 1; i <= PER_ADDRESS; i++) await login(t, member.email, `wrong-${i}`, { ip: `2001:db8:1:2::${i}` });
    expect((await login(t, member.email, member.password, { ip: '2001:db8:1:2::99' })).statusCode).toBe(429);
    expect((await login(t, member.email, member.password, { ip: '2001:db8:9:9::1' })).statusCode).toBe(200);
  });

  it('slows the account down for everyone only when many addresses guess at it, and shows the spec’s text', async () => {
    const member = await signup(t, {}, { ip: '10.61.2.1' });
    // Four addresses use their five guesses each: twenty wrong passwords in 15 minutes for one account.
    for (let a = 1; a <= 4; a++) {
      for (let i = 1; i <= PER_ADDRESS; i++) await login(t, member.email, `wrong-${a}-${i}`, { ip: `10.61.2.${10 + a}` });
    }
    const owner = await login(t, member.email, member.password, { ip: '10.61.2.99' });
    expect(owner.statusCode).toBe(429);
    expect(owner.json()).toMatchObject({ error: 'login_blocked', message_key: 'auth.errors.loginBlocked' });
    expect(owner.json().message).toMatch(/^Too many wrong attempts, the account stays blocked for \d+ minutes$/);
    if (ON_REDIS) return; // Redis keeps real time; the harness clock drives the database limiter only.
    t.clock.advance(16 * 60_000);
    expect((await login(t, member.email, member.password, { ip: '10.61.2.99' })).statusCode).toBe(200);
  });

  it('treats an address without an account the same way (no one learns who is a member)', async () => {
    const nobody = uniqueEmail('nobody');
    const ip = '10.61.3.1';
    const answers = [];
    for (let i = 1; i <= PER_ADDRESS + 1; i++) answers.push((await login(t, nobody, `guess-${i}`, { ip })).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('gives a right password back its place: logging in often from one address never blocks', async () => {
    const member = await signup(t, {}, { ip: '10.61.4.1' });
    const ip = '10.61.4.2';
    for (let i = 0; i < 8; i++) expect((await login(t, member.email, member.password, { ip })).statusCode).toBe(200);
    for (let i = 1; i <= PER_ADDRESS - 1; i++) expect((await login(t, member.email, `wrong-${i}`, { ip })).statusCode).toBe(401);
    expect((await login(t, member.email, member.password, { ip })).statusCode).toBe(200);
  });
});

/** `auth.device=<value>` of a response, for the next request's Cookie header. */
function deviceCookie(res: { cookies: { name: string; value: string }[]; statusCode: number; body: string }): string {
  const cookie = res.cookies.find((c) => c.name === 'auth.device');
  if (!cookie?.value) throw new Error(`no device cookie in the response (${res.statusCode} ${res.body})`);
  return `auth.device=${cookie.value}`;
}

/** Four networks use their five guesses each: the account-wide allowance of 20 is gone for every stranger. */
async function guessFromFourNetworks(email: string, prefix: string) {
  for (let a = 1; a <= 4; a++) {
    for (let i = 1; i <= PER_ADDRESS; i++) await login(t, email, `wrong-${a}-${i}`, { ip: `${prefix}.${10 + a}` });
  }
}

describe('device cookies: the owner’s known browser is not slowed down by strangers', () => {
  it('a right password leaves a signed, HttpOnly device cookie that does not name the account', async () => {
    const member = await signup(t, {}, { ip: '10.62.0.1' });
    const res = await login(t, member.email, member.password, { ip: '10.62.0.2' });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'auth.device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/' });
    expect(cookie?.maxAge).toBeGreaterThan(30 * 86_400);
    expect(cookie?.value).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
    expect(cookie?.value).not.toContain(member.email.split('@')[0]);
    // A wrong password leaves none.
    const wrong = await login(t, member.email, 'wrong-password', { ip: '10.62.0.3' });
    expect(wrong.cookies.find((c) => c.name === 'auth.device')).toBeUndefined();
  });

  it('lets the owner’s browser in while guesses from many networks slow the account down for everyone else', async () => {
    const member = await signup(t, {}, { ip: '10.62.1.1' });
    const device = deviceCookie(await login(t, member.email, member.password, { ip: '10.62.1.2' }));
    await guessFromFourNetworks(member.email, '10.62.1');

    // A browser without the cookie is throttled, with the spec's text and a Retry-After.
    const stranger = await login(t, member.email, member.password, { ip: '10.62.1.99' });
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().message).toMatch(/^Too many wrong attempts, the account stays blocked for \d+ minutes$/);
    // The owner's browser logs in from anywhere, even from a network the attacker used up.
    for (const ip of ['10.62.1.2', '10.62.1.50', '10.62.1.11']) {
      const owner = await login(t, member.email, member.password, { ip, cookie: device });
      expect(owner.statusCode, `${ip}: ${owner.body}`).toBe(200);
      expect(owner.json().user.email).toBe(member.email);
    }
    // A mistyped password there is an ordinary 401, not the strangers' block.
    expect((await login(t, member.email, 'typo', { ip: '10.62.1.50', cookie: device })).statusCode).toBe(401);
  });

  it('counts the device’s own wrong passwords: five, then the spec’s text for it alone', async () => {
    const member = await signup(t, {}, { ip: '10.62.2.1' });
    const device = deviceCookie(await login(t, member.email, member.password, { ip: '10.62.2.2' }));
    const ip = '10.62.2.2';
    for (let i = 1; i <= PER_ADDRESS - 1; i++) {
      expect((await login(t, member.email, `wrong-${i}`, { ip, cookie: device })).statusCode, `attempt ${i}`).toBe(401);
    }
    const fifth = await login(t, member.email, 'wrong-5', { ip, cookie: device });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: 'login_blocked',
      message: 'Too many wrong attempts, the account stays blocked for 15 minutes',
      minutes: 15,
    });
    expect((await login(t, member.email, member.password, { ip, cookie: device })).statusCode).toBe(429);
    // The device's guesses did not use up the allowance of strangers' addresses or of the account.
    expect((await login(t, member.email, member.password, { ip: '10.62.2.3' })).statusCode).toBe(200);
  });

  it('evaluates at most five of 50 parallel wrong guesses that carry a device cookie', async () => {
    const member = await signup(t, {}, { ip: '10.62.3.1' });
    const device = deviceCookie(await login(t, member.email, member.password, { ip: '10.62.3.2' }));
    vi.mocked(argon2.verify).mockClear();
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(t, member.email, `wrong-guess-${i}`, { ip: `10.62.3.${10 + i}`, cookie: device })),
    );
    expect(verifyCalls()).toBeLessThanOrEqual(PER_ADDRESS);
    const counts = statuses(burst);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(50);
    expect(counts[429] ?? 0).toBeGreaterThanOrEqual(50 - PER_ADDRESS);
  });

  it('does not trust a cookie of another account, a forged or a malformed one', async () => {
    const victim = await signup(t, {}, { ip: '10.62.4.1' });
    const attacker = await signup(t, {}, { ip: '10.62.4.2' });
    const own = deviceCookie(await login(t, attacker.email, attacker.password, { ip: '10.62.4.2' }));
    const [nonce, signature] = own.slice('auth.device='.length).split('.');
    const forged = `auth.device=${nonce}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const cookies = [own, forged, 'auth.device=garbage', `auth.device=${'a'.repeat(2000)}`];
    for (const [n, cookie] of cookies.entries()) {
      const ip = `10.62.4.${10 + n}`;
      for (let i = 1; i <= PER_ADDRESS; i++) await login(t, victim.email, `wrong-${i}`, { ip, cookie });
      const res = await login(t, victim.email, victim.password, { ip, cookie });
      expect(res.statusCode, cookie.slice(0, 40)).toBe(429);
    }
  });
});

describe('Retry-After on a refused login', () => {
  it('says in seconds when the address may try again, matching the body', async () => {
    const member = await signup(t, {}, { ip: '10.63.0.1' });
    const ip = '10.63.0.2';
    for (let i = 1; i <= PER_ADDRESS; i++) await login(t, member.email, `wrong-${i}`, { ip });
    const res = await login(t, member.email, member.password, { ip });
    expect(res.statusCode).toBe(429);
    const seconds = Number(res.headers['retry-after']);
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(res.json().retry_after_seconds).toBe(seconds);
    expect(res.json().minutes).toBe(Math.ceil(seconds / 60));
  });
});
