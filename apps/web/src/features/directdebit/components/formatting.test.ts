import { describe, expect, it } from 'vitest';
import { formatIban, formatPhone, ibanState, isValidPhone } from './formatting';

describe('IBAN input', () => {
  it('groups in fours, in capitals, without other characters', () => {
    expect(formatIban('nl91abna0417164300')).toBe('NL91 ABNA 0417 1643 00');
    expect(formatIban('DE89-3704-0044-0532-0130-00')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('')).toBe('');
  });

  it('tells typing, valid and invalid apart', () => {
    expect(ibanState('')).toBe('empty');
    expect(ibanState('NL91 AB')).toBe('typing');
    expect(ibanState('NL91 ABNA 0417 1643 00')).toBe('valid');
    expect(ibanState('NL91 ABNA 0417 1643 01')).toBe('invalid');
    expect(ibanState('XX91 1234')).toBe('invalid');
    expect(ibanState('12')).toBe('invalid');
    // Brazil has IBANs, but is no SEPA country.
    expect(ibanState('BR97 0036 0305 0000 1000 9795 493P 1')).toBe('invalid');
  });
});

describe('phone input', () => {
  it('formats as the country writes numbers, and checks them', () => {
    expect(formatPhone('0612345678', 'NL')).toBe('06 12345678');
    expect(formatPhone('+4915112345678', 'NL')).toBe('+49 1511 2345678');
    expect(isValidPhone('06 12345678', 'NL')).toBe(true);
    expect(isValidPhone('0031 6 12345678', 'DE')).toBe(true);
    expect(isValidPhone('06 12', 'NL')).toBe(false);
  });
});
