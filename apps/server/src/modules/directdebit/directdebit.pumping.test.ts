import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * SMS pumping (OWASP: SMS toll fraud): the code SMS costs money per message, more to some countries. The per-member
 * and per-number limits do not stop many accounts from one address sending codes to many numbers, nor codes to
 * expensive destinations far from any SEPA account.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let seq = 20_000_000;
const form = (phone: string) => ({
  step: 'details',
  account_holder: 'Anna de Vries',
  iban: 'NL91 ABNA 0417 1643 00',
  street: 'Keizersgracht',
  house_number: '12a',
  zip: '1015 CS',
  city: 'Amsterdam',
  phone,
});
const send = (who: Member, phone: string, ip?: string) => callAs(t, who, 'POST', '/api/directdebit.php', form(phone), ip ? { ip } : {});

describe('the direct-debit code SMS', () => {
  it('goes only to mobile numbers of SEPA countries (a SEPA mandate is signed from there)', async () => {
    const anna = await createMember(t);
    // Mobile numbers of Nigeria, the United States and Cuba, valid and far from SEPA.
    for (const phone of ['+2348031234567', '+12015550123', '+5352123456']) {
      const res = await send(anna, phone);
      expect([res.statusCode, res.json().field ?? res.json().error], phone).toEqual([400, 'phone']);
    }
    expect((await send(anna, `+316${++seq}`)).statusCode).toBe(200);
  });

  it('is limited per address: many accounts behind one address cannot send codes to many numbers', async () => {
    const ip = '10.99.7.1';
    const codes: number[] = [];
    for (let k = 0; k < 12; k++) {
      const who = await createMember(t);
      codes.push((await send(who, `+316${++seq}`, ip)).statusCode);
    }
    expect(codes.filter((s) => s === 200)).toHaveLength(10);
    expect(codes.slice(10)).toEqual([429, 429]);
  });
});
