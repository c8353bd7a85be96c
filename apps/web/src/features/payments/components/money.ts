import { LOCALE_INFO } from '@amora/contracts/core';
import { useCallback } from 'react';
import { useLocale } from '@/shared/site/use-locale';

/** The digits after the decimal point of a currency (2 for EUR, 0 for JPY), as Intl knows them. */
function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in minor units (1999) as the locale writes it in its currency ("€ 19,99", "19,99 zł"). */
function formatMoney(amountMinor: number, currency: string, locale: string, options: Intl.NumberFormatOptions = {}): string {
  const digits = fractionDigits(currency);
  const value = amountMinor / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, ...options }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${currency}`;
  }
}

/** The price of one credit of a package, with a third decimal where it needs one ("€ 0,125"). */
export function formatPerCredit(priceMinor: number, credits: number, currency: string, locale: string): string {
  const digits = fractionDigits(currency);
  return formatMoney(Math.round((priceMinor / credits) * 10) / 10, currency, locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits + 1,
  });
}

/** The Intl locale of the page's language (en → en-GB, no → nb-NO). */
export function useIntlLocale(): string {
  return LOCALE_INFO[useLocale()].iso;
}

/** formatMoney in the page's language. */
export function useMoney(): (amountMinor: number, currency: string) => string {
  const locale = useIntlLocale();
  return useCallback((amountMinor: number, currency: string) => formatMoney(amountMinor, currency, locale), [locale]);
}

/** A whole percentage as the page's language writes it ("25%", "25 %", "25 %"). */
export function usePercent(): (percentage: number) => string {
  const locale = useIntlLocale();
  return useCallback((percentage: number) => new Intl.NumberFormat(locale, { style: 'percent' }).format(percentage / 100), [locale]);
}
