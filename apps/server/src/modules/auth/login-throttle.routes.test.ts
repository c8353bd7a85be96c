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
