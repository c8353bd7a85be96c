import { describe, expect, it } from 'vitest';
import { currencyDecimals, parseMollieAmount, toMollieAmount } from './amounts';
import { CARD_BRANDS, MOLLIE_METHOD_OF, mollieMethodFor, offeredMethods, SPEC_PAYMENT_METHODS, specMethodsFor } from './methods';

describe('amounts', () => {
  it('writes minor units with the currency decimals Mollie wants', () => {
    expect(toMollieAmount(1234, 'EUR')).toEqual({ currency: 'EUR', value: '12.34' });
    expect(toMollieAmount(5, 'GBP')).toEqual({ currency: 'GBP', value: '0.05' });
    expect(toMollieAmount(0, 'PLN')).toEqual({ currency: 'PLN', value: '0.00' });
    expect(toMollieAmount(100000, 'CHF')).toEqual({ currency: 'CHF', value: '1000.00' });
    expect(toMollieAmount(500, 'JPY')).toEqual({ currency: 'JPY', value: '500' });
    expect(toMollieAmount(1999, 'eur')).toEqual({ currency: 'EUR', value: '19.99' });
  });

  it('has two decimals for every currency of our sites', () => {
    for (const currency of ['EUR', 'GBP', 'PLN', 'CHF', 'USD', 'CAD', 'AUD', 'NZD', 'DKK', 'SEK', 'NOK']) {
      expect(currencyDecimals(currency)).toBe(2);
    }
  });

  it('refuses what is not a whole number of minor units', () => {
    expect(() => toMollieAmount(-1, 'EUR')).toThrow(RangeError);
    expect(() => toMollieAmount(1.5, 'EUR')).toThrow(RangeError);
    expect(() => toMollieAmount(10, 'EURO')).toThrow(RangeError);
  });

  it('reads Mollie amounts back, and only well-formed ones', () => {
    expect(parseMollieAmount({ currency: 'EUR', value: '12.34' })).toEqual({ minor: 1234, currency: 'EUR' });
    expect(parseMollieAmount({ currency: 'JPY', value: '500' })).toEqual({ minor: 500, currency: 'JPY' });
    for (const bad of [
      { currency: 'EUR', value: '12' },
      { currency: 'EUR', value: '12.3' },
      { currency: 'EUR', value: '-1.00' },
      { currency: 'EUR', value: '1e3' },
      { currency: 'eur', value: '1.00' },
      { currency: 'JPY', value: '5.00' },
      { currency: 'EUR', value: 12.34 },
      null,
    ]) {
      expect(parseMollieAmount(bad as never)).toBeNull();
    }
  });
});

describe('method mapping', () => {
  it('maps all 18 spec methods, card brands to creditcard', () => {
    expect(SPEC_PAYMENT_METHODS).toHaveLength(18);
    expect(Object.keys(MOLLIE_METHOD_OF).sort()).toEqual([...SPEC_PAYMENT_METHODS].sort());
    for (const brand of CARD_BRANDS) expect(MOLLIE_METHOD_OF[brand]).toBe('creditcard');
    expect(mollieMethodFor('ideal')).toBe('ideal');
    expect(mollieMethodFor('giropay')).toBe('giropay');
    expect(mollieMethodFor('bitcoin')).toBeNull();
    expect(specMethodsFor('creditcard')).toEqual(['visa', 'mastercard', 'maestro', 'creditcard', 'postepay', 'nexi', 'cartebancaire']);
  });

  it('offers a spec method only when its provider method is listed', () => {
    expect(offeredMethods(['visa', 'ideal', 'giropay', 'sofort', 'paypal'], ['creditcard', 'ideal'])).toEqual(['visa', 'ideal']);
    expect(offeredMethods(['giropay'], ['giropay'])).toEqual(['giropay']);
  });
});
