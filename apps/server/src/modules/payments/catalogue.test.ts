import { PAYMENT_METHODS, paymentMethodsResponseSchema } from '@amora/contracts';
import { COUNTRY_CURRENCY, catalogueOf, creditPackages, paymentMethods, seedPaymentCatalogue, sites } from '@amora/db';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { mollieLocale } from './catalogue';
import { CARD_BASED_METHODS, EEA_COUNTRIES, mollieMethodFor, NO_CARD_SURCHARGE_COUNTRIES } from './provider/methods';

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

  it('puts no surcharge on a consumer card in the EEA (PSD2): 0 in the seed, and 0 at checkout whatever is stored', async () => {
    const methods = await t.ctx.db.select().from(paymentMethods);
    const cardsInEea = methods.filter(
      (m) => CARD_BASED_METHODS.includes(m.method as never) && NO_CARD_SURCHARGE_COUNTRIES.includes(m.country),
    );
    expect(cardsInEea.length).toBeGreaterThan(0);
    expect(cardsInEea.some((m) => EEA_COUNTRIES.includes(m.country) && m.country === 'NL')).toBe(true);
    for (const m of cardsInEea) expect(m.feeMinor, `${m.country} ${m.method}`).toBe(0);
    // Outside the EEA a card may carry a fee (Switzerland, the United States).
    expect(methods.some((m) => m.country === 'CH' && m.method === 'visa' && m.feeMinor > 0)).toBe(true);

    // An operator stores a card fee for the Netherlands: the member is still charged none.
    const sam = await createMember(t);
    const packages = (await callAs(t, sam, 'GET', '/api/packages.php')).json().packages as { id: number }[];
    await t.ctx.db
      .update(paymentMethods)
      .set({ feeMinor: 25 })
      .where(and(eq(paymentMethods.country, 'NL'), inArray(paymentMethods.method, ['visa', 'mastercard', 'applepay'])));
    const res = await callAs(t, sam, 'GET', `/api/paymentmethods.php?package=${packages[1].id}`);
    expect(res.statusCode, res.body).toBe(200);
    const offered = paymentMethodsResponseSchema.parse(res.json()).methods;
    const cards = offered.filter((m) => ['visa', 'mastercard', 'applepay'].includes(m.name));
    expect(cards.length).toBeGreaterThan(0);
    for (const m of cards) expect([m.name, m.fee]).toEqual([m.name, 0]);
    // Bad input changes nothing and says so.
    expect((await callAs(t, sam, 'GET', '/api/paymentmethods.php?package=abc')).statusCode).toBe(400);
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
