/**
 * What the sandbox offers, modelled on a Mollie account today (docs.mollie.com, payment methods): which method
 * takes which currencies, payers of which countries, which amounts and which sequence types. Giropay and SOFORT
 * are absent because Mollie discontinued them; card brands (Visa, Mastercard, Maestro, Carte Bancaire, PostePay,
 * Nexi, …) are all 'creditcard', the brand is the payer's card. Limits are in minor units of the payment's currency.
 */
export type SandboxMethodId =
  | 'creditcard'
  | 'applepay'
  | 'paypal'
  | 'ideal'
  | 'bancontact'
  | 'blik'
  | 'eps'
  | 'paysafecard'
  | 'banktransfer'
  | 'directdebit';

export type SandboxSequenceType = 'oneoff' | 'first' | 'recurring';

export interface SandboxMethod {
  id: SandboxMethodId;
  description: string;
  currencies: readonly string[];
  /** Payers' countries (billingCountry); null: any. */
  countries: readonly string[] | null;
  minimumMinor: number;
  maximumMinor: number | null;
  sequenceTypes: readonly SandboxSequenceType[];
  /** Listed only when the request asks for it (includeWallets=applepay), as Mollie does. */
  wallet?: boolean;
}

const CARD_CURRENCIES = ['EUR', 'GBP', 'USD', 'CHF', 'PLN', 'CAD', 'AUD', 'NZD', 'DKK', 'SEK', 'NOK', 'CZK', 'HUF'] as const;
/** The SEPA countries whose payers can pay by bank transfer and SEPA direct debit. */
const SEPA = [
  'AT',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'SM',
] as const;

const SANDBOX_METHODS: readonly SandboxMethod[] = [
  {
    id: 'creditcard',
    description: 'Card',
    currencies: CARD_CURRENCIES,
    countries: null,
    minimumMinor: 1,
    maximumMinor: 1_000_000,
    sequenceTypes: ['oneoff', 'first', 'recurring'],
  },
  {
    id: 'applepay',
    description: 'Apple Pay',
    currencies: CARD_CURRENCIES,
    countries: null,
    minimumMinor: 1,
    maximumMinor: 1_000_000,
    sequenceTypes: ['oneoff', 'first'],
    wallet: true,
  },
  {
    id: 'paypal',
    description: 'PayPal',
    currencies: CARD_CURRENCIES,
    countries: null,
    minimumMinor: 1,
    maximumMinor: 1_000_000,
    sequenceTypes: ['oneoff', 'first', 'recurring'],
  },
  {
    id: 'ideal',
    description: 'iDEAL',
    currencies: ['EUR'],
    countries: ['NL'],
    minimumMinor: 1,
    maximumMinor: 5_000_000,
    sequenceTypes: ['oneoff', 'first'],
  },
  {
    id: 'bancontact',
    description: 'Bancontact',
    currencies: ['EUR'],
    countries: ['BE'],
    minimumMinor: 2,
    maximumMinor: 5_000_000,
    sequenceTypes: ['oneoff', 'first'],
  },
  {
    id: 'blik',
    description: 'BLIK',
    currencies: ['PLN'],
    countries: ['PL'],
    minimumMinor: 100,
    maximumMinor: 5_000_000,
    sequenceTypes: ['oneoff'],
  },
  {
    id: 'eps',
    description: 'eps',
    currencies: ['EUR'],
    countries: ['AT'],
    minimumMinor: 100,
    maximumMinor: 5_000_000,
    sequenceTypes: ['oneoff', 'first'],
  },
  {
    id: 'paysafecard',
    description: 'paysafecard',
    currencies: ['EUR'],
    countries: null,
    minimumMinor: 100,
    maximumMinor: 100_000,
    sequenceTypes: ['oneoff'],
  },
  {
    id: 'banktransfer',
    description: 'Bank transfer',
    currencies: ['EUR'],
    countries: SEPA,
    minimumMinor: 1,
    maximumMinor: 100_000_000,
    sequenceTypes: ['oneoff'],
  },
  {
    id: 'directdebit',
    description: 'SEPA Direct Debit',
    currencies: ['EUR'],
    countries: SEPA,
    minimumMinor: 1,
    maximumMinor: 100_000,
    sequenceTypes: ['recurring'],
  },
];

/** Methods that Mollie once had and no longer offers: a request for them is refused like Mollie refuses it. */
export const DISCONTINUED_METHODS = ['giropay', 'sofort'] as const;

/** Descriptions Mollie gives in some locales (the rest keep their brand name or the English one). */
const LOCALISED: Record<string, Partial<Record<SandboxMethodId, string>>> = {
  nl: { creditcard: 'Creditcard', banktransfer: 'Overboeking', directdebit: 'SEPA-incasso' },
  de: { creditcard: 'Kreditkarte', banktransfer: 'Banküberweisung', directdebit: 'SEPA-Lastschrift' },
  fr: { creditcard: 'Carte bancaire', banktransfer: 'Virement bancaire', directdebit: 'Prélèvement SEPA' },
  it: { creditcard: 'Carta di credito', banktransfer: 'Bonifico bancario', directdebit: 'Addebito diretto SEPA' },
  es: { creditcard: 'Tarjeta', banktransfer: 'Transferencia bancaria', directdebit: 'Domiciliación SEPA' },
  pl: { creditcard: 'Karta', banktransfer: 'Przelew bankowy', directdebit: 'Polecenie zapłaty SEPA' },
};

export function methodDescription(method: SandboxMethod, locale: string | null): string {
  const language = locale?.slice(0, 2) ?? 'en';
  return LOCALISED[language]?.[method.id] ?? method.description;
}

/** Mollie's locales (the Locale enum of @mollie/api-client). */
export const MOLLIE_LOCALES = new Set([
  'en_US',
  'en_GB',
  'nl_NL',
  'nl_BE',
  'fr_FR',
  'fr_BE',
  'fr_LU',
  'de_DE',
  'de_AT',
  'de_CH',
  'de_LU',
  'es_ES',
  'ca_ES',
  'pt_PT',
  'it_IT',
  'nb_NO',
  'sv_SE',
  'fi_FI',
  'da_DK',
  'is_IS',
  'hu_HU',
  'pl_PL',
  'lv_LV',
  'lt_LT',
]);

export interface AvailabilityQuery {
  amount?: { minor: number; currency: string };
  billingCountry?: string | null;
  sequenceType?: SandboxSequenceType;
  includeWallets?: boolean;
}

export function findMethod(id: string): SandboxMethod | undefined {
  return SANDBOX_METHODS.find((method) => method.id === id);
}

/** Why a method cannot take a payment, in Mollie's words, or null when it can. */
export function unavailableReason(method: SandboxMethod, query: AvailabilityQuery): { field: string; detail: string } | null {
  const sequenceType = query.sequenceType ?? 'oneoff';
  if (!method.sequenceTypes.includes(sequenceType)) {
    return { field: 'method', detail: `The payment method ${method.id} does not support the sequence type ${sequenceType}` };
  }
  if (query.billingCountry && method.countries && !method.countries.includes(query.billingCountry)) {
    return { field: 'method', detail: `The payment method ${method.id} is not available for the country ${query.billingCountry}` };
  }
  if (query.amount) {
    if (!method.currencies.includes(query.amount.currency)) {
      return { field: 'amount.currency', detail: `The payment method ${method.id} does not support the currency ${query.amount.currency}` };
    }
    if (query.amount.minor < method.minimumMinor) return { field: 'amount', detail: 'The amount is lower than the minimum' };
    if (method.maximumMinor !== null && query.amount.minor > method.maximumMinor) {
      return { field: 'amount', detail: 'The amount is higher than the maximum' };
    }
  }
  return null;
}

/** The methods listed for a query, in the catalogue's order. */
export function availableMethods(query: AvailabilityQuery): SandboxMethod[] {
  return SANDBOX_METHODS.filter((method) => (!method.wallet || query.includeWallets) && unavailableReason(method, query) === null);
}

/**
 * Cards the test checkout lets the payer pick for 'creditcard', with the `cardLabel` Mollie reports for each
 * (its labels: PostePay is a Visa and Nexi a Mastercard card, Carte Bancaire is reported as 'Carte Bleue').
 */
export const TEST_CARDS = [
  { name: 'Visa', cardLabel: 'Visa', number: '4242' },
  { name: 'Mastercard', cardLabel: 'Mastercard', number: '4444' },
  { name: 'Maestro', cardLabel: 'Maestro', number: '0003' },
  { name: 'Carte Bancaire', cardLabel: 'Carte Bleue', number: '1010' },
  { name: 'PostePay (Visa)', cardLabel: 'Visa', number: '7171' },
  { name: 'Nexi (Mastercard)', cardLabel: 'Mastercard', number: '5454' },
  { name: 'American Express', cardLabel: 'American Express', number: '0005' },
] as const;

/** Test issuers (banks) the checkout offers for the bank methods, as Mollie's test mode shows some. */
export const TEST_ISSUERS: Partial<Record<SandboxMethodId, readonly string[]>> = {
  ideal: ['ABN AMRO', 'ING', 'Rabobank', 'ASN Bank', 'bunq'],
  eps: ['Erste Bank und Sparkassen', 'Raiffeisen Bank', 'Bank Austria'],
  blik: ['PKO Bank Polski', 'mBank', 'ING Bank Śląski'],
};

/**
 * The status in which a payment of this method can be canceled by the merchant, as at Mollie (its `isCancelable`):
 * a bank transfer while open (the money has not come), a direct debit while pending (not yet sent to the bank).
 * A checkout of any other method (iDEAL, cards, PayPal …) cannot be canceled while open: it expires by itself.
 */
export function cancelableStatusOf(method: string | null): 'open' | 'pending' | null {
  if (method === 'banktransfer') return 'open';
  if (method === 'directdebit') return 'pending';
  return null;
}

/** Mollie's `isCancelable` of a payment. */
export function isCancelable(payment: { method: string | null; status: string }): boolean {
  const status = cancelableStatusOf(payment.method);
  return status !== null && payment.status === status;
}
