import {
  DIRECT_DEBIT_CODE_MAX_ATTEMPTS,
  DIRECT_DEBIT_CODE_TTL_SECONDS,
  DIRECT_DEBIT_OPEN_LIMIT,
  DIRECT_DEBIT_RESEND_SECONDS,
  directDebitStatusSchema,
  directDebitVerificationSchema,
} from '@amora/contracts';
import {
  creditPackages,
  directDebitMandates,
  outboxSms,
  paymentCustomers,
  paymentOrders,
  profiles,
  smsVerifications,
  users,
} from '@amora/db';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallArgs, callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { directDebitAllowed } from '../payments/payments.service';
import { checkedIban, checkedMobile, maskPhone, purgeMember } from './directdebit.service';

const URL = '/api/directdebit.php';
const IBAN = 'NL91 ABNA 0417 1643 00';

let t: TestApp;
let phoneSeq = 10_000_000;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const as = (...args: CallArgs) => callAs(t, ...args);

/** A Dutch mobile number no other test uses (each number has its own SMS allowance). */
const nextPhone = () => `+316${++phoneSeq}`;

function details(overrides: Record<string, unknown> = {}) {
  return {
    step: 'details',
    account_holder: 'Anna de Vries',
    iban: IBAN,
    street: 'Keizersgracht',
    house_number: '12a',
    zip: '1015 CS',
    city: 'Amsterdam',
    phone: nextPhone(),
    ...overrides,
  };
}

async function lastCode(phone: string): Promise<string> {
  const [row] = await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.toNumber, phone)).orderBy(desc(outboxSms.id)).limit(1);
  const code = /\b(\d{6})\b/.exec(row?.text ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${phone}`);
  return code;
}

async function start(who: Member, overrides: Record<string, unknown> = {}) {
  const body = details(overrides);
  const res = await as(who, 'POST', URL, body);
  expect(res.statusCode, res.body).toBe(200);
  return { ...directDebitVerificationSchema.parse(res.json()), phone: body.phone as string, code: await lastCode(body.phone as string) };
}

/** The wait between two codes is over (the limiter counts in Redis, on real time, when the tests run with it). */
const waitIsOver = (who: Member) => t.ctx.limiter.reset(`dd:gap:${who.userId}`);

const otp = (who: Member, verification: number, code: string) => as(who, 'POST', URL, { step: 'otp', verification, otp: code });

function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe('checks', () => {
  it('takes valid SEPA IBANs in any spacing and case', () => {
    expect(checkedIban('nl91abna0417164300')).toBe('NL91ABNA0417164300');
    expect(checkedIban('DE89 3704 0044 0532 0130 00')).toBe('DE89370400440532013000');
    expect(checkedIban('NL91ABNA0417164301')).toBeNull();
    expect(checkedIban('hello')).toBeNull();
  });

  it('reads a phone in the member country, needs a mobile, answers E.164', () => {
    expect(checkedMobile('06 12345678', 'NL')).toBe('+31612345678');
    expect(checkedMobile('0151 12345678', 'DE')).toBe('+4915112345678');
    expect(checkedMobile('0031 6 12345678', 'DE')).toBe('+31612345678');
    expect(checkedMobile('020 555 1234', 'NL')).toBeNull(); // a landline takes no SMS
    expect(checkedMobile('12', 'NL')).toBeNull();
    expect(maskPhone('+31612345678')).toBe('+31 6••••••78');
  });
});

describe('GET /api/directdebit.php', () => {
  it('needs a member', async () => {
    const res = await as(null, 'GET', URL);
    expect(res.statusCode).toBe(403);
    expect(res.json().authentication_required).toBe(true);
  });

  it('answers no mandate, not blocked, no open debits for a new member', async () => {
    const who = await createMember(t);
    const res = await as(who, 'GET', URL);
    expect(res.statusCode).toBe(200);
    expect(directDebitStatusSchema.parse(res.json())).toMatchObject({
      mandate: null,
      blocked: false,
      open: 0,
      limit: DIRECT_DEBIT_OPEN_LIMIT,
    });
  });
});

describe('step details', () => {
  it('sends a 6-digit code by SMS to the number in E.164, in the member language, and keeps only its hash', async () => {
    const who = await createMember(t);
    await t.ctx.db.update(users).set({ language: 'de' }).where(eq(users.id, who.userId));
    const res = await start(who);
    expect(res.phone_masked).toMatch(/^\+31 6•+\d\d$/);
    expect(res.resend_after_seconds).toBe(DIRECT_DEBIT_RESEND_SECONDS);
    const [sms] = await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.toNumber, res.phone));
    expect(sms).toMatchObject({ status: 'dev', userId: who.userId, kind: 'directdebitCode' });
    expect(sms.text).toContain(`${res.code} ist dein`);
    const [row] = await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.id, res.verification));
    expect(row.codeHash).not.toContain(res.code);
    expect(new Date(row.expiresAt).getTime() - t.ctx.now().getTime()).toBeLessThanOrEqual(DIRECT_DEBIT_CODE_TTL_SECONDS * 1000);
  });

  it('reads a national number in the member country', async () => {
    const who = await createMember(t);
    await t.ctx.db.update(profiles).set({ country: 'DE' }).where(eq(profiles.id, who.profileId));
    const res = await as(who, 'POST', URL, details({ phone: '0151 2345 6789' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await lastCode('+4915123456789')).toMatch(/^\d{6}$/);
  });

  it.each([
    ['an invalid IBAN', { iban: 'NL91ABNA0417164301' }, 'iban'],
    ['an IBAN that is no IBAN', { iban: '12345' }, 'iban'],
    ['a landline', { phone: '+31205551234' }, 'phone'],
    ['an invalid phone', { phone: '+31 6 12' }, 'phone'],
    ['letters for a phone', { phone: 'call me' }, 'phone'],
    ['a NUL byte', { city: 'Amster\u0000dam' }, 'city'],
    ['a NUL byte in the IBAN', { iban: 'NL91ABNA04171643\u000000' }, 'iban'],
    ['a huge name', { account_holder: 'A'.repeat(100_000) }, 'account_holder'],
    ['a huge IBAN', { iban: 'NL'.repeat(50_000) }, 'iban'],
    ['an empty street', { street: '   ' }, 'street'],
    ['a number for a name', { account_holder: 12 }, 'account_holder'],
  ])('refuses %s', async (_label, overrides, field) => {
    const who = await createMember(t);
    const res = await as(who, 'POST', URL, details(overrides));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field ?? Object.keys(res.json().fields ?? {})[0]).toBe(field);
  });

  it('refuses unknown fields, an unknown step and no body', async () => {
    const who = await createMember(t);
    expect((await as(who, 'POST', URL, details({ admin: true }))).statusCode).toBe(400);
    expect((await as(who, 'POST', URL, { step: 'pay' })).statusCode).toBe(400);
    expect((await as(who, 'POST', URL, {})).statusCode).toBe(400);
    expect((await as(null, 'POST', URL, details())).statusCode).toBe(403);
  });

  it('throttles codes: one a minute, five an hour for a member and for a number', async () => {
    const who = await createMember(t);
    const phone = nextPhone();
    await start(who, { phone });
    const again = await as(who, 'POST', URL, details({ phone }));
    expect(again.statusCode).toBe(429);
    expect(again.json().retry_after_seconds).toBeGreaterThan(0);
    // Another member cannot flood the same phone either.
    for (let i = 0; i < 4; i++) {
      const other = await createMember(t);
      await start(other, { phone });
    }
    const sixth = await as(await createMember(t), 'POST', URL, details({ phone }));
    expect(sixth.statusCode).toBe(429);
  });

  it('refuses a blocked member', async () => {
    const who = await createMember(t);
    await t.ctx.db.update(users).set({ directDebitBlocked: true }).where(eq(users.id, who.userId));
    const res = await as(who, 'POST', URL, details());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'direct_debit_blocked', message: 'Your account is blocked for direct debit' });
    expect((await as(who, 'GET', URL)).json().blocked).toBe(true);
  });
});

describe('step otp', () => {
  it('answers Invalid code for a wrong code and counts the try', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    const res = await otp(who, verification, wrong(code));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_code', message: 'Invalid code' });
    const [row] = await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.id, verification));
    expect(row.attempts).toBe(1);
  });

  it('refuses a malformed code as bad input', async () => {
    const who = await createMember(t);
    const { verification } = await start(who);
    for (const bad of ['12345', '1234567', 'abcdef', '12\u00003456', 123456]) {
      expect((await as(who, 'POST', URL, { step: 'otp', verification, otp: bad })).statusCode).toBe(400);
    }
    expect((await as(who, 'POST', URL, { step: 'otp', verification: -1, otp: '123456' })).statusCode).toBe(400);
  });

  it('answers Invalid code for an expired code, even the right one', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    t.clock.advance(DIRECT_DEBIT_CODE_TTL_SECONDS * 1000 + 1000);
    try {
      const res = await otp(who, verification, code);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_code');
    } finally {
      t.clock.set(new Date());
    }
  });

  it('answers 404 for another member verification, and counts no try on it', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const { verification, code } = await start(owner);
    expect((await otp(other, verification, code)).statusCode).toBe(404);
    expect((await as(other, 'POST', URL, { step: 'resend', verification })).statusCode).toBe(404);
    expect((await otp(other, 999_999_999, code)).statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.id, verification));
    expect(row.attempts).toBe(0);
  });

  it('lets 100 parallel guesses try the code only the allowed number of times', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    // 100 wrong guesses at once, then the right code: the right one comes too late.
    const guesses = Array.from({ length: 100 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => otp(who, verification, g)));
    expect(answers.every((a) => a.statusCode === 400 && a.json().error === 'invalid_code')).toBe(true);
    const [row] = await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.id, verification));
    expect(row.attempts).toBe(DIRECT_DEBIT_CODE_MAX_ATTEMPTS);
    expect(row.payload).toEqual({});
    expect((await otp(who, verification, code)).json().error).toBe('invalid_code');
  });
});

describe('step resend', () => {
  it('sends a new code after the wait; the old one stops working', async () => {
    const who = await createMember(t);
    const first = await start(who);
    const early = await as(who, 'POST', URL, { step: 'resend', verification: first.verification });
    expect(early.statusCode).toBe(429);
    expect(early.json().retry_after_seconds).toBeLessThanOrEqual(DIRECT_DEBIT_RESEND_SECONDS);
    await waitIsOver(who);
    const res = await as(who, 'POST', URL, { step: 'resend', verification: first.verification });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().verification).toBe(first.verification);
    const code = await lastCode(first.phone);
    if (code !== first.code) expect((await otp(who, first.verification, first.code)).json().error).toBe('invalid_code');
    expect((await otp(who, first.verification, code)).statusCode).toBe(200);
  });
});

describe('the mandate', () => {
  it('is made with the provider after the right code; only the IBAN last four are kept', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    const res = await otp(who, verification, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, mandate: { account_holder: 'Anna de Vries', iban_last4: '4300' } });
    const [mandate] = await t.ctx.db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, who.userId));
    expect(mandate).toMatchObject({ ibanLast4: '4300', status: 'valid', provider: t.ctx.payments.name });
    expect(JSON.stringify(mandate)).not.toContain('0417164300');
    const [customer] = await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, who.userId));
    const mandates = await t.ctx.payments.listMandates(customer.customerId);
    expect(mandates.map((m) => m.id)).toContain(mandate.providerMandateId);
    const [used] = await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.id, verification));
    expect(used.usedAt).not.toBeNull();
    expect(used.payload).toEqual({});
    // The code works once.
    expect((await otp(who, verification, code)).json().error).toBe('invalid_code');
    const status = directDebitStatusSchema.parse((await as(who, 'GET', URL)).json());
    expect(status.mandate?.iban_last4).toBe('4300');
    expect(await directDebitAllowed(t.ctx, who.userId)).toEqual({
      ok: true,
      mandateId: mandate.providerMandateId,
      customerId: customer.customerId,
    });
  });

  it('a second account replaces the first with the same provider customer', async () => {
    const who = await createMember(t);
    const first = await start(who);
    expect((await otp(who, first.verification, first.code)).statusCode).toBe(200);
    await waitIsOver(who);
    const second = await start(who, { iban: 'DE89 3704 0044 0532 0130 00', account_holder: 'Anna Schmidt' });
    expect((await otp(who, second.verification, second.code)).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, who.userId));
    expect(rows.map((r) => [r.ibanLast4, r.status]).sort()).toEqual([
      ['3000', 'valid'],
      ['4300', 'replaced'],
    ]);
    expect(await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, who.userId))).toHaveLength(1);
  });

  it('is not made for a member blocked between the two steps', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    await t.ctx.db.update(users).set({ directDebitBlocked: true }).where(eq(users.id, who.userId));
    const res = await otp(who, verification, code);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is blocked for direct debit');
    expect(await t.ctx.db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, who.userId))).toHaveLength(0);
  });
});

describe('the limit of open direct debits', () => {
  it('shows the open debits, refuses a new form at the limit with the limit message', async () => {
    const who = await createMember(t);
    const { verification, code } = await start(who);
    expect((await otp(who, verification, code)).statusCode).toBe(200);
    const [user] = await t.ctx.db.select({ siteId: users.siteId }).from(users).where(eq(users.id, who.userId));
    const [pkg] = await t.ctx.db
      .insert(creditPackages)
      .values({ siteId: user.siteId, country: 'NL', currency: 'EUR', credits: 100, priceMinor: 1999 })
      .returning({ id: creditPackages.id });
    for (let i = 0; i < DIRECT_DEBIT_OPEN_LIMIT; i++) {
      await t.ctx.db.insert(paymentOrders).values({
        siteId: user.siteId,
        userId: who.userId,
        packageId: pkg.id,
        country: 'NL',
        credits: 100,
        currency: 'EUR',
        listPriceMinor: 1999,
        amountMinor: 1999,
        method: 'directdebit',
        provider: t.ctx.payments.name,
        status: 'pending',
      });
    }
    const status = directDebitStatusSchema.parse((await as(who, 'GET', URL)).json());
    expect(status).toMatchObject({ open: DIRECT_DEBIT_OPEN_LIMIT, limit: DIRECT_DEBIT_OPEN_LIMIT, blocked: false });
    expect(await directDebitAllowed(t.ctx, who.userId)).toEqual({ ok: false, error: 'direct_debit_limit' });
    await waitIsOver(who);
    const res = await as(who, 'POST', URL, details());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'direct_debit_limit', limit: DIRECT_DEBIT_OPEN_LIMIT });
  });
});

describe('the account purge', () => {
  it('removes the mandates, the codes and the SMS of the member, and only theirs', async () => {
    const who = await createMember(t);
    const other = await createMember(t);
    const mine = await start(who);
    expect((await otp(who, mine.verification, mine.code)).statusCode).toBe(200);
    const theirs = await start(other);
    await purgeMember(t.ctx, { userId: who.userId });
    expect(await t.ctx.db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, who.userId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.userId, who.userId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.toNumber, mine.phone))).toHaveLength(0);
    expect(await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.toNumber, theirs.phone))).toHaveLength(1);
  });
});
