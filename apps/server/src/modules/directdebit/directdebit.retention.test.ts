import { outboxSms, smsVerifications } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * A direct-debit form whose code was never entered keeps the full IBAN, the address and the phone number, and its
 * SMS keeps the code in clear: they must go once the code is over, also when no other member sends a form after it
 * (before, only the next form of anyone cleared them).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('an abandoned direct-debit form', () => {
  it('keeps no IBAN, address, phone or code in clear an hour after its code expired', async () => {
    const anna = await createMember(t);
    const phone = '+31687654321';
    const res = await callAs(t, anna, 'POST', '/api/directdebit.php', {
      step: 'details',
      account_holder: 'Anna de Vries',
      iban: 'NL91 ABNA 0417 1643 00',
      street: 'Keizersgracht',
      house_number: '12a',
      zip: '1015 CS',
      city: 'Amsterdam',
      phone,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [sms] = await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.toNumber, phone));
    expect(sms.text).toMatch(/\d{6}/);

    t.clock.advance(2 * 3_600_000 + 1000);
    await t.ctx.jobs.runDue();
    expect(await t.ctx.db.select().from(smsVerifications).where(eq(smsVerifications.userId, anna.userId))).toEqual([]);
    const [after] = await t.ctx.db.select().from(outboxSms).where(eq(outboxSms.id, sms.id));
    expect(after?.text ?? '').not.toMatch(/\d{6}/);
  });
});
