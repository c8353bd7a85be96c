import { type DiscountCodeView, PAYMENT_ERRORS, type PaymentMethodName } from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/errors';
import { type DbContext, dbOf } from '../../lib/transaction';
import { activeDiscountFor, lookUpCode, priceWithDiscount } from '../discounts/discounts.service';
import type { Site } from '../sites/sites.service';
import { type Buyer, listMethods, listPackages, type MethodRow, type PackageRow } from './payments.repository';
import { allowedFee, MANDATE_ONLY_METHODS, mollieMethodFor, offeredMethods } from './provider/methods';

/**
 * What a member can buy where: the payment country, its packages, the methods with their fees as the provider
 * offers them for an amount, and the discount that prices them.
 */

/**
 * The catalogue of the payment country wanted (paymentCountryOf) when the site sells there (it has packages for it),
 * else of the site's default country. Orders record the country.
 */
export async function paymentCatalogue(
  ctx: DbContext,
  site: Site,
  wanted: string | null,
): Promise<{ country: string; currency: string; packages: PackageRow[] }> {
  const db = dbOf(ctx);
  if (wanted && site.countries.includes(wanted)) {
    const packages = await listPackages(db, site.id, wanted);
    if (packages.length) return { country: wanted, currency: packages[0].currency, packages };
  }
  const packages = await listPackages(db, site.id, site.defaultCountry);
  return { country: site.defaultCountry, currency: packages[0]?.currency ?? 'EUR', packages };
}

/**
 * The payment country asked for (docs/decisions.md): the country of the member's first purchase, fixed from then on;
 * before it, the visitor's country at the time of the call (the geo header). Never the profile's country, which the
 * member can edit to another country's prices.
 */
export const paymentCountryOf = (buyer: Pick<Buyer, 'firstPurchaseCountry'>, visitorCountry: string | null) =>
  buyer.firstPurchaseCountry?.toUpperCase() ?? visitorCountry?.toUpperCase() ?? null;

/** Mollie's locale for a member's language in a country (its checkout speaks it). */
const MOLLIE_LOCALES = new Set([
  'en_US',
  'en_GB',
  'nl_NL',
  'nl_BE',
  'fr_FR',
  'fr_BE',
  'de_DE',
  'de_AT',
  'de_CH',
  'es_ES',
  'it_IT',
  'nb_NO',
  'sv_SE',
  'fi_FI',
  'da_DK',
  'pl_PL',
]);
const LANGUAGE_LOCALE: Record<string, string> = {
  en: 'en_US',
  nl: 'nl_NL',
  fr: 'fr_FR',
  de: 'de_DE',
  es: 'es_ES',
  it: 'it_IT',
  no: 'nb_NO',
  sv: 'sv_SE',
  fi: 'fi_FI',
  da: 'da_DK',
  pl: 'pl_PL',
};
export function mollieLocale(language: string, country: string): string {
  const lang = language === 'no' ? 'nb' : language;
  const local = `${lang}_${country}`;
  return MOLLIE_LOCALES.has(local) ? local : (LANGUAGE_LOCALE[language] ?? 'en_US');
}

/** The provider's method list per amount, country and locale, kept a minute (it changes when an account is set up). */
const LISTED_TTL_MS = 60_000;
const listed = new Map<string, { at: number; ids: Promise<string[]> }>();

async function providerMethodIds(ctx: AppContext, q: { amountMinor: number; currency: string; country: string; locale: string }) {
  const key = `${ctx.payments.name}|${q.amountMinor}|${q.currency}|${q.country}|${q.locale}`;
  const now = Date.now();
  const hit = listed.get(key);
  if (hit && now - hit.at < LISTED_TTL_MS) return hit.ids;
  const ids = ctx.payments
    .listMethods({
      amount: { minor: q.amountMinor, currency: q.currency },
      locale: q.locale,
      billingCountry: q.country,
      sequenceType: 'oneoff',
    })
    .then((methods) => methods.map((m) => m.id));
  // A failed ask is not kept.
  ids.catch(() => listed.delete(key));
  if (listed.size > 1000) listed.clear();
  listed.set(key, { at: now, ids });
  return ids;
}

export const providerUnavailable = () =>
  new HttpError(503, PAYMENT_ERRORS.providerUnavailable, 'The payment provider could not be reached; try again', { retry: true });

export interface OfferedMethod {
  name: PaymentMethodName;
  feeMinor: number;
  /** Direct debit: paid with a mandate, never through a checkout. */
  mandateOnly: boolean;
}

/**
 * The site's methods in the country that the provider offers for this amount: a card brand when the provider
 * lists its cards, giropay and sofort only when listed; direct debit (a recurring payment on a mandate, which
 * the provider's checkout list never shows) whenever the site offers it in the country.
 */
export async function offeredMethodsFor(
  ctx: AppContext,
  site: Site,
  q: { country: string; currency: string; amountMinor: number; language: string; unfilteredWhenUnreachable?: boolean },
): Promise<OfferedMethod[]> {
  const rows = await listMethods(dbOf(ctx), site.id, q.country);
  const known = rows.filter((row): row is MethodRow & { method: PaymentMethodName } => mollieMethodFor(row.method) !== null);
  const checkout = known.filter((row) => !MANDATE_ONLY_METHODS.includes(row.method));
  let ids: string[];
  try {
    ids = await providerMethodIds(ctx, {
      amountMinor: Math.max(1, q.amountMinor),
      currency: q.currency,
      country: q.country,
      locale: mollieLocale(q.language, q.country),
    });
  } catch {
    // The price list may still show the site's methods and fees; a payment needs the provider's answer.
    if (!q.unfilteredWhenUnreachable) throw providerUnavailable();
    ids = checkout.map((row) => mollieMethodFor(row.method) as string);
  }
  const offered = new Set(
    offeredMethods(
      checkout.map((row) => row.method),
      ids,
    ),
  );
  return known
    .filter((row) => offered.has(row.method) || MANDATE_ONLY_METHODS.includes(row.method))
    .map((row) => ({
      name: row.method,
      // No surcharge on a consumer card in the EEA (PSD2), even if an operator stored one.
      feeMinor: allowedFee(q.country, row.method, row.feeMinor),
      mandateOnly: MANDATE_ONLY_METHODS.includes(row.method),
    }));
}

export type DiscountChoice =
  | { kind: 'none' }
  | { kind: 'code'; code: string; view: DiscountCodeView | null; error: string | null }
  | { kind: 'active'; code: string; view: DiscountCodeView };

/**
 * The discount that prices a member's packages: the code asked for, else the active one (the time bonus, else the
 * welcome discount). An asked-for code that does not apply says why.
 */
export async function chooseDiscount(
  ctx: AppContext,
  i: { siteId: number; userId: number; code: string | undefined; country: string },
): Promise<DiscountChoice> {
  const now = ctx.now();
  if (i.code) {
    const found = await lookUpCode(ctx, {
      siteId: i.siteId,
      userId: i.userId,
      code: i.code,
      now,
      packageId: null,
      method: null,
      country: i.country,
    });
    return found.ok
      ? { kind: 'code', code: i.code, view: found.discount, error: null }
      : { kind: 'code', code: i.code, view: null, error: found.error };
  }
  const active = await activeDiscountFor(ctx, { siteId: i.siteId, userId: i.userId, now });
  return active ? { kind: 'active', code: active.code, view: active } : { kind: 'none' };
}

export interface PackagePrice {
  discountCodeId: number | null;
  percentage: number;
  discountMinor: number;
  error: string | null;
}

/** A package's discount with the chosen code (method null: not chosen yet, so not checked). */
export async function priceOf(
  ctx: AppContext,
  i: { siteId: number; userId: number; choice: DiscountChoice; pkg: PackageRow; method: string | null },
): Promise<PackagePrice> {
  const none = { discountCodeId: null, percentage: 0, discountMinor: 0 };
  if (i.choice.kind === 'none') return { ...none, error: null };
  if (i.choice.kind === 'code' && i.choice.error) return { ...none, error: i.choice.error };
  const result = await priceWithDiscount(ctx, {
    siteId: i.siteId,
    userId: i.userId,
    code: i.choice.code,
    country: i.pkg.country,
    method: i.method,
    currency: i.pkg.currency,
    amountMinor: i.pkg.priceMinor,
    now: ctx.now(),
  });
  if (!result.ok) return { ...none, error: result.error };
  return { discountCodeId: result.discountCodeId, percentage: result.percentage, discountMinor: result.discountMinor, error: null };
}
