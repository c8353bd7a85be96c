import { PAYMENT_METHODS } from '@amora/contracts';
import { COUNTRY_CURRENCY, catalogueOf, creditPackages, paymentMethods, seedPaymentCatalogue, sites } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { mollieLocale } from './catalogue';
import { mollieMethodFor } from './provider/methods';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the seeded catalogue', () => {
  it('sells four packages in every country of every site, in its currency, one of them best value', async () => {
    const all = await t.ctx.db.select().from(sites);
    expect(all.length).toBeGreaterThan(0);
    for (const site of all) {
      const packages = await t.ctx.db.select().from(creditPackages).where(eq(creditPackages.siteId, site.id));
      for (const country of site.countries) {
        const mine = packages.filter((p) => p.country === country).sort((a, b) => a.position - b.position);
        expect(mine, `${site.domain} ${country}`).toHaveLength(4);
        expect(mine.every((p) => p.currency === COUNTRY_CURRENCY[country])).toBe(true);
        expect(mine.filter((p) => p.bestValue)).toHaveLength(1);
        // More credits cost more, and each credit less.
        for (let k = 1; k < mine.length; k++) {
          expect(mine[k].credits).toBeGreaterThan(mine[k - 1].credits);
          expect(mine[k].priceMinor).toBeGreaterThan(mine[k - 1].priceMinor);
          expect(mine[k].priceMinor / mine[k].credits).toBeLessThan(mine[k - 1].priceMinor / mine[k - 1].credits);
        }
        // The largest package makes a message cost about the site's lowest money price of a message.
        const largest = mine[3];
        const minimum = site.minimumMessageCosts[country];
        if (minimum) {
          expect(minimum.currency).toBe(largest.currency);
          const perMessage = (largest.priceMinor / largest.credits) * site.messageCredits;
          expect(perMessage / 100).toBeGreaterThan(minimum.costs * 0.9);
          expect(perMessage / 100).toBeLessThan(minimum.costs * 1.2);
        }
      }
    }
  });

  it('offers every method of spec §9 somewhere, only known methods, with small fees', async () => {
    const methods = await t.ctx.db.select().from(paymentMethods);
    const names = new Set(methods.map((m) => m.method));
    expect([...names].sort()).toEqual([...PAYMENT_METHODS].sort());
    for (const m of methods) {
      expect(mollieMethodFor(m.method), m.method).not.toBeNull();
      expect(m.feeMinor).toBeGreaterThanOrEqual(0);
      expect(m.feeMinor).toBeLessThanOrEqual(200);
    }
    // Direct debit is SEPA: only where the currency is the euro.
    for (const m of methods.filter((row) => row.method === 'directdebit')) expect(COUNTRY_CURRENCY[m.country]).toBe('EUR');
  });

  it('is given once to a site that has none, however often it is asked', async () => {
    const [site] = await t.ctx.db.select().from(sites).limit(1);
    expect(catalogueOf({ id: site.id, countries: ['NL', 'XX'], messageCredits: 10 }).packages).toHaveLength(4);
    expect(await seedPaymentCatalogue(t.ctx.db)).toBe(0);
    const before = await t.ctx.db.select().from(creditPackages).where(eq(creditPackages.siteId, site.id));
    await Promise.all([seedPaymentCatalogue(t.ctx.db), seedPaymentCatalogue(t.ctx.db)]);
    expect(await t.ctx.db.select().from(creditPackages).where(eq(creditPackages.siteId, site.id))).toHaveLength(before.length);
  });
});

describe('the checkout language', () => {
  it.each([
    ['nl', 'BE', 'nl_BE'],
    ['de', 'CH', 'de_CH'],
    ['de', 'NL', 'de_DE'],
    ['no', 'NO', 'nb_NO'],
    ['en', 'GB', 'en_GB'],
    ['en', 'NL', 'en_US'],
    ['xx', 'NL', 'en_US'],
  ])('%s in %s → %s', (language, country, locale) => {
    expect(mollieLocale(language, country)).toBe(locale);
  });
});
