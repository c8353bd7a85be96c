import { describe, expect, it } from 'vitest';
import { DEFAULT_TERMS_DATE, dialablePhone, landerSlug, NICHES, termsDate } from './constants';

describe('landerSlug', () => {
  it.each([
    [1, 'en', 'eng'],
    [1, 'de', 'de'],
    [7, 'de', 'gay-de'],
    [2, 'nl', 'she-nl'],
    [2, 'en', 'she-eng'],
    [3, 'fr', 'bdsm-fr'],
    [4, 'it', 'bbw-it'],
    [5, 'pl', 'gilf-pl'],
    [6, 'en', 'milf-eng'],
  ])('niche %i in %s is %s', (niche, locale, slug) => {
    expect(landerSlug(niche, locale)).toBe(slug);
  });

  it('has a slug for every niche', () => {
    expect(new Set(NICHES.map((n) => landerSlug(n, 'de'))).size).toBe(NICHES.length);
  });
});

describe('termsDate', () => {
  it('is 2023-12-01 by default', () => {
    expect(DEFAULT_TERMS_DATE).toBe('2023-12-01');
    expect(termsDate(null)).toBe('2023-12-01');
    expect(termsDate(undefined)).toBe('2023-12-01');
    expect(termsDate('')).toBe('2023-12-01');
  });

  it("is the company's start date when it was added later", () => {
    expect(termsDate('2024-03-15')).toBe('2024-03-15');
    expect(termsDate('2024-03-15T10:00:00Z')).toBe('2024-03-15');
  });

  it('stays 2023-12-01 for companies added earlier or on that day', () => {
    expect(termsDate('2020-01-01')).toBe('2023-12-01');
    expect(termsDate('2021-06-01')).toBe('2023-12-01');
    expect(termsDate('2023-12-01')).toBe('2023-12-01');
  });
});

describe('dialablePhone', () => {
  it('removes dashes and spaces', () => {
    expect(dialablePhone('+31 20-123 4567')).toBe('+31201234567');
    expect(dialablePhone('+353 1-555 0147')).toBe('+35315550147');
    expect(dialablePhone('0800\t123-45')).toBe('080012345');
  });

  it('leaves a number that is already dialable alone', () => {
    expect(dialablePhone('+31201234567')).toBe('+31201234567');
    expect(dialablePhone('')).toBe('');
  });
});
