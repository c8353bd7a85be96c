import { PAYMENT_METHODS } from '@amora/contracts';

/**
 * Our payment method names (spec §9, PAYMENT_METHODS in contracts) and the provider method behind each.
 * Card brands are one provider method: Visa, Mastercard, Maestro, the generic credit card, PostePay, Nexi and
 * Carte Bancaire are all Mollie's 'creditcard' (the payer's card decides the brand). Giropay and SOFORT keep
 * their own Mollie ids, but Mollie has discontinued both (HistoricPaymentMethod in @mollie/api-client), so they
 * are offered only when the provider lists them, which neither Mollie nor the sandbox does today. Direct debit
 * is a recurring payment on a valid SEPA mandate, never a checkout method (docs/decisions.md).
 */
export type SpecPaymentMethod = (typeof PAYMENT_METHODS)[number];

export const SPEC_PAYMENT_METHODS: readonly SpecPaymentMethod[] = PAYMENT_METHODS;

/** Mollie's method ids we use. */
export type MollieMethodId =
  | 'creditcard'
  | 'paypal'
  | 'ideal'
  | 'bancontact'
  | 'blik'
  | 'giropay'
  | 'sofort'
  | 'eps'
  | 'applepay'
  | 'paysafecard'
  | 'banktransfer'
  | 'directdebit';

export const MOLLIE_METHOD_OF: Readonly<Record<SpecPaymentMethod, MollieMethodId>> = {
  visa: 'creditcard',
  mastercard: 'creditcard',
  maestro: 'creditcard',
  creditcard: 'creditcard',
  postepay: 'creditcard',
  nexi: 'creditcard',
  cartebancaire: 'creditcard',
  paypal: 'paypal',
  ideal: 'ideal',
  bancontact: 'bancontact',
  blik: 'blik',
  giropay: 'giropay',
  sofort: 'sofort',
  eps: 'eps',
  applepay: 'applepay',
  paysafecard: 'paysafecard',
  banktransfer: 'banktransfer',
  directdebit: 'directdebit',
};

/** Our names that are card brands taken through Mollie's 'creditcard'. */
export const CARD_BRANDS: readonly SpecPaymentMethod[] = [
  'visa',
  'mastercard',
  'maestro',
  'creditcard',
  'postepay',
  'nexi',
  'cartebancaire',
];

/**
 * The countries of the European Economic Area (the EU, Iceland, Liechtenstein, Norway), where a consumer card
 * payment may carry no surcharge (PSD2, Directive (EU) 2015/2366 art. 62(4)).
 */
export const EEA_COUNTRIES: readonly string[] = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
];

/** Methods paid with a consumer card: the card brands and Apple Pay (a card in a wallet). */
export const CARD_BASED_METHODS: readonly SpecPaymentMethod[] = [...CARD_BRANDS, 'applepay'];

/** Where a consumer card payment may carry no surcharge: the EEA, and the United Kingdom by its own rules. */
export const NO_CARD_SURCHARGE_COUNTRIES: readonly string[] = [...EEA_COUNTRIES, 'GB'];

/** The fee a method may carry in a country: none for a card-based method where surcharges are banned, whatever is stored. */
export function allowedFee(country: string, method: string, storedFeeMinor: number): number {
  const card = (CARD_BASED_METHODS as readonly string[]).includes(method);
  return card && NO_CARD_SURCHARGE_COUNTRIES.includes(country.toUpperCase()) ? 0 : storedFeeMinor;
}

/** Paid only with a mandate (a recurring payment, no checkout). */
export const MANDATE_ONLY_METHODS: readonly SpecPaymentMethod[] = ['directdebit'];

function isSpecPaymentMethod(name: string): name is SpecPaymentMethod {
  return Object.hasOwn(MOLLIE_METHOD_OF, name);
}

/** The Mollie method for one of our names, or null for a name that is not ours. */
export function mollieMethodFor(name: string): MollieMethodId | null {
  return isSpecPaymentMethod(name) ? MOLLIE_METHOD_OF[name] : null;
}

/** Our names a provider method stands for, in the spec's order ('creditcard' → the seven card names). */
export function specMethodsFor(mollieId: string): SpecPaymentMethod[] {
  return SPEC_PAYMENT_METHODS.filter((name) => MOLLIE_METHOD_OF[name] === mollieId);
}

/**
 * Which of `names` the provider offers, given the Mollie ids it listed: a card brand when 'creditcard' is
 * listed, giropay and sofort only if listed (they are not, today). Keeps the order of `names`.
 */
export function offeredMethods<T extends string>(names: readonly T[], listedMollieIds: Iterable<string>): T[] {
  const listed = new Set(listedMollieIds);
  return names.filter((name) => {
    const id = mollieMethodFor(name);
    return id !== null && listed.has(id);
  });
}
