import { electronicFormatIBAN, friendlyFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools';
import { AsYouType, type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/** The longest IBAN there is (Saint Lucia, 32) with a space after every four characters. */
const MAX_FORMATTED = 42;

/** An IBAN as typed, shown in groups of four in capitals: "nl91abna0417164300" → "NL91 ABNA 0417 1643 00". */
export function formatIban(value: string): string {
  const electronic = electronicFormatIBAN(value) ?? '';
  return (friendlyFormatIBAN(electronic) ?? electronic).slice(0, MAX_FORMATTED);
}

/** What the IBAN field says while the member types: nothing yet, still typing, valid, or not a SEPA IBAN. */
export type IbanState = 'empty' | 'typing' | 'valid' | 'invalid';

export function ibanState(value: string): IbanState {
  const electronic = electronicFormatIBAN(value) ?? '';
  if (!electronic) return 'empty';
  if (!/^[A-Z]{0,2}$|^[A-Z]{2}\d{0,2}$|^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(electronic)) return 'invalid';
  const country = electronic.slice(0, 2);
  const spec = country.length === 2 ? getCountrySpecifications()[country] : undefined;
  if (country.length === 2 && (!spec?.SEPA || !spec.chars)) return 'invalid';
  if (isValidIBAN(electronic)) return 'valid';
  return spec?.chars && electronic.length >= spec.chars ? 'invalid' : 'typing';
}

/** A phone number as typed, formatted the way the member's country writes it ("0612345678" → "06 12345678"). */
export function formatPhone(value: string, country: string | null): string {
  return new AsYouType((country ?? undefined) as CountryCode | undefined).input(value);
}

/** Whether a phone number is a valid number, read in the member's country unless it starts with + or 00. */
export function isValidPhone(value: string, country: string | null): boolean {
  const phone = parsePhoneNumberFromString(value.trim().replace(/^00/, '+'), (country ?? undefined) as CountryCode | undefined);
  return Boolean(phone?.isValid());
}
