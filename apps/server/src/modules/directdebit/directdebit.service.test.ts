import { DIRECT_DEBIT_OPEN_LIMIT, type PaymentOrderStatus } from '@amora/contracts';
import { creditPackages, directDebitMandates, paymentCustomers, paymentOrders, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../lib/transaction';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { directDebitAllowed } from '../payments/payments.service';

let t: TestApp;
let packageId: number;
beforeAll(async () => {
  t = await createTestApp();
  const [pkg] = await t.ctx.db
    .insert(creditPackages)
    .values({ siteId: 1, country: 'NL', currency: 'EUR', credits: 100, priceMinor: 1999 })
    .returning({ id: creditPackages.id });
  packageId = pkg.id;
});
afterAll(async () => {
  await t?.close();
});

async function withMandate() {
  const who = await createMember(t);
  const [user] = await t.ctx.db.select({ siteId: users.siteId }).from(users).where(eq(users.id, who.userId));
  await t.ctx.db.insert(paymentCustomers).values({ userId: who.userId, provider: 'sandbox', customerId: `cst_${who.userId}` });
  await t.ctx.db.insert(directDebitMandates).values({
    siteId: user.siteId,
    userId: who.userId,
    accountHolder: 'A Member',
    ibanLast4: '4300',
    street: 'Main street',
    houseNumber: '1',
    zip: '1011 AB',
    city: 'Amsterdam',
    phone: '+31612345678',
    provider: 'sandbox',
    providerMandateId: `mdt_${who.userId}`,
  });
  return { ...who, siteId: user.siteId };
}

function openOrder(who: { userId: number; siteId: number }, status: PaymentOrderStatus = 'pending') {
  return t.ctx.db.insert(paymentOrders).values({
    siteId: who.siteId,
    userId: who.userId,
    packageId,
    country: 'NL',
    credits: 100,
    currency: 'EUR',
    listPriceMinor: 1999,
    amountMinor: 1999,
    method: 'directdebit',
    provider: 'sandbox',
    status,
  });
}

describe('directDebitAllowed', () => {
  it('asks for a mandate first', async () => {
    const who = await createMember(t);
    expect(await directDebitAllowed(t.ctx, who.userId)).toEqual({ ok: false, error: 'mandate_required' });
  });

  it('answers the mandate and customer, until the limit of open debits', async () => {
    const who = await withMandate();
    expect(await directDebitAllowed(t.ctx, who.userId)).toEqual({
      ok: true,
      mandateId: `mdt_${who.userId}`,
      customerId: `cst_${who.userId}`,
    });
    await openOrder(who, 'paid');
    await openOrder(who, 'failed');
    for (let i = 0; i < DIRECT_DEBIT_OPEN_LIMIT; i++) await openOrder(who, i % 2 ? 'open' : 'pending');
    expect(await directDebitAllowed(t.ctx, who.userId)).toEqual({ ok: false, error: 'direct_debit_limit' });
    expect(await directDebitAllowed(t.ctx, who.userId, { provider: 'mollie' })).toEqual({ ok: false, error: 'mandate_required' });
  });

  it('refuses a blocked member, inside a unit of work too', async () => {
    const who = await withMandate();
    await t.ctx.db.update(users).set({ directDebitBlocked: true }).where(eq(users.id, who.userId));
    expect(await withTransaction(t.ctx, () => directDebitAllowed(t.ctx, who.userId))).toEqual({
      ok: false,
      error: 'direct_debit_blocked',
    });
  });
});
