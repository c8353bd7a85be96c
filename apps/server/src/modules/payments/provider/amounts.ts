/**
 * Minor units (our integers) ↔ Mollie's amounts (`{ currency: 'EUR', value: '12.34' }`). Mollie wants exactly the
 * currency's number of decimals: two for every currency our sites use (EUR, GBP, PLN, CHF, USD, CAD, AUD, NZD,
 * DKK, SEK, NOK), none for the yen and the Icelandic króna, which none of our sites uses yet.
 */
export interface MollieAmount {
  currency: string;
  value: string;
}

const ZERO_DECIMAL = new Set(['JPY', 'ISK']);

export function currencyDecimals(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

/** 1234 EUR → { currency: 'EUR', value: '12.34' }; 500 JPY → '500'. */
export function toMollieAmount(minor: number, currency: string): MollieAmount {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`an amount is a whole number of minor units ≥ 0, got ${minor}`);
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new RangeError(`a currency is an ISO 4217 code, got "${currency}"`);
  const decimals = currencyDecimals(code);
  if (decimals === 0) return { currency: code, value: String(minor) };
  const text = String(minor).padStart(decimals + 1, '0');
  return { currency: code, value: `${text.slice(0, -decimals)}.${text.slice(-decimals)}` };
}

/**
 * Mollie's amount → minor units, or null when the value is not written with exactly the currency's decimals
 * (Mollie refuses '12.3' and '12' for EUR, and so does the sandbox).
 */
export function parseMollieAmount(
  amount: { currency?: unknown; value?: unknown } | null | undefined,
): { minor: number; currency: string } | null {
  if (!amount || typeof amount.currency !== 'string' || typeof amount.value !== 'string') return null;
  const currency = amount.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency) || currency !== amount.currency) return null;
  const decimals = currencyDecimals(currency);
  const pattern = decimals === 0 ? /^\d{1,12}$/ : new RegExp(`^\\d{1,12}\\.\\d{${decimals}}$`);
  if (!pattern.test(amount.value)) return null;
  const minor = Number(amount.value.replace('.', ''));
  return Number.isSafeInteger(minor) ? { minor, currency } : null;
}

/** Like parseMollieAmount, for answers from the provider: an amount it sent is trusted to be well formed. */
export function fromMollieAmount(amount: MollieAmount): { minor: number; currency: string } {
  const parsed = parseMollieAmount(amount);
  if (!parsed) throw new Error(`unexpected amount from the payment provider: ${JSON.stringify(amount)}`);
  return parsed;
}
