import { eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { creditPackages, paymentMethods, sites } from './schema';

/**
 * The credit packages and payment methods every site sells, per payment country (issue 17). Prices are what a
 * package costs in the country's own currency, in minor units, with the endings people expect there; the credits
 * grow with the site's price of a message, so that on every site the largest package makes a message cost about
 * the site's `minimum_message_costs` (one unit of money; 4 złoty). Fees are flat per method (minor units), 0 for
 * the country's own bank methods and, in the EEA, for cards; a little for cards and wallets elsewhere, more for
 * PayPal and prepaid vouchers.
 */

/** The currency of each country the sites sell in. */
export const COUNTRY_CURRENCY: Record<string, string> = {
  NL: 'EUR',
  BE: 'EUR',
  FR: 'EUR',
  IT: 'EUR',
  ES: 'EUR',
  DE: 'EUR',
  AT: 'EUR',
  IE: 'EUR',
  GB: 'GBP',
  US: 'USD',
  CA: 'CAD',
  PL: 'PLN',
  AU: 'AUD',
  NZ: 'NZD',
  CH: 'CHF',
};

/** The four packages' prices per currency (minor units), smallest package first. */
const PRICES: Record<string, [number, number, number, number]> = {
  EUR: [799, 1699, 3499, 6999],
  GBP: [699, 1499, 3199, 6499],
  USD: [899, 1899, 3899, 7799],
  CAD: [999, 2099, 4299, 7999],
  AUD: [999, 2199, 4499, 7999],
  NZD: [1099, 2299, 4699, 8299],
  CHF: [799, 1699, 3399, 6799],
  PLN: [3499, 6999, 13_999, 27_999],
};

/** Credits of the four packages for a site whose message costs 10 credits; scaled by the site's message price. */
const CREDITS_PER_10 = [50, 120, 300, 700] as const;
/** The package marked best value (the third: most credits per unit of money short of the largest outlay). */
const BEST_VALUE = 2;

/**
 * Methods (spec §9 names) per country, in the order they are shown, with their fee in minor units. In the EEA a
 * consumer card payment may carry no surcharge (PSD2 art. 62(4); the United Kingdom's rules say the same): cards
 * and Apple Pay (a card in a wallet) are 0 there, as the payments module enforces whatever is stored (docs/operations.md).
 */
const METHOD_FEES: Record<string, [string, number][]> = {
  NL: [
    ['ideal', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  BE: [
    ['bancontact', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['maestro', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  FR: [
    ['cartebancaire', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  IT: [
    ['postepay', 0],
    ['nexi', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['maestro', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['paysafecard', 50],
  ],
  ES: [
    ['visa', 0],
    ['mastercard', 0],
    ['maestro', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  DE: [
    ['paypal', 35],
    ['sofort', 0],
    ['giropay', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['applepay', 0],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  AT: [
    ['eps', 0],
    ['sofort', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['maestro', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
    ['paysafecard', 50],
  ],
  IE: [
    ['visa', 0],
    ['mastercard', 0],
    ['applepay', 0],
    ['paypal', 35],
    ['banktransfer', 0],
    ['directdebit', 0],
  ],
  GB: [
    ['visa', 0],
    ['mastercard', 0],
    ['maestro', 0],
    ['applepay', 0],
    ['paypal', 30],
    ['paysafecard', 45],
  ],
  US: [
    ['visa', 30],
    ['mastercard', 30],
    ['creditcard', 30],
    ['applepay', 30],
    ['paypal', 40],
  ],
  CA: [
    ['visa', 35],
    ['mastercard', 35],
    ['applepay', 35],
    ['paypal', 45],
  ],
  PL: [
    ['blik', 0],
    ['visa', 0],
    ['mastercard', 0],
    ['applepay', 0],
    ['paypal', 150],
    ['banktransfer', 0],
    ['paysafecard', 200],
  ],
  AU: [
    ['visa', 40],
    ['mastercard', 40],
    ['applepay', 40],
    ['paypal', 50],
  ],
  NZ: [
    ['visa', 40],
    ['mastercard', 40],
    ['applepay', 40],
    ['paypal', 55],
  ],
  CH: [
    ['visa', 25],
    ['mastercard', 25],
    ['creditcard', 25],
    ['applepay', 25],
    ['paypal', 40],
    ['banktransfer', 0],
    ['paysafecard', 50],
  ],
};

/** The packages and methods of one site, for every country it sells in that has a currency here. */
export function catalogueOf(site: { id: number; countries: string[]; messageCredits: number }) {
  const packages: (typeof creditPackages.$inferInsert)[] = [];
  const methods: (typeof paymentMethods.$inferInsert)[] = [];
  const scale = site.messageCredits / 10;
  for (const country of site.countries) {
    const currency = COUNTRY_CURRENCY[country];
    const prices = currency ? PRICES[currency] : undefined;
    if (!currency || !prices) continue;
    CREDITS_PER_10.forEach((credits, position) => {
      packages.push({
        siteId: site.id,
        country,
        currency,
        credits: Math.max(1, Math.round((credits * scale) / 10) * 10),
        priceMinor: prices[position],
        bestValue: position === BEST_VALUE,
        position,
      });
    });
    (METHOD_FEES[country] ?? []).forEach(([method, feeMinor], position) => {
      methods.push({ siteId: site.id, country, method, feeMinor, position });
    });
  }
  return { packages, methods };
}

/**
 * Gives every site that has no packages yet its catalogue (the demo seed, and a database made before payments
 * existed). One process at a time (an advisory lock), so servers starting together do not both insert.
 */
export async function seedPaymentCatalogue(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(4170017)`);
    const all = await tx.select({ id: sites.id, countries: sites.countries, messageCredits: sites.messageCredits }).from(sites);
    let seeded = 0;
    for (const site of all) {
      const [existing] = await tx.select({ id: creditPackages.id }).from(creditPackages).where(eq(creditPackages.siteId, site.id)).limit(1);
      if (existing) continue;
      const { packages, methods } = catalogueOf(site);
      if (packages.length) await tx.insert(creditPackages).values(packages);
      if (methods.length) await tx.insert(paymentMethods).values(methods).onConflictDoNothing();
      seeded++;
    }
    return seeded;
  });
}
