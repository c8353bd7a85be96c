import { LOCALES } from '@amora/contracts/core';
import { describe, expect, it } from 'vitest';
import { chatDayKey, formatChatDay, formatClockTime, formatLongDate, formatResetTime, resetMoment } from './format-time';

describe('formatLongDate: calendar dates in words, in the page language', () => {
  it.each([
    ['en', '1 December 2023'],
    ['de', '1. Dezember 2023'],
    ['nl', '1 december 2023'],
    ['fr', '1 décembre 2023'],
    ['it', '1 dicembre 2023'],
    ['es', '1 de diciembre de 2023'],
    ['pl', '1 grudnia 2023'],
    ['da', '1. december 2023'],
    ['no', '1. desember 2023'],
    ['sv', '1 december 2023'],
    ['fi', '1. joulukuuta 2023'],
  ] as const)('%s: 2023-12-01 is "%s"', (locale, text) => {
    expect(formatLongDate('2023-12-01', locale)).toBe(text);
  });

  it('is the same day in every time zone (a date, not a moment)', () => {
    // A member west of Greenwich must not see the terms dated a day earlier.
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/Los_Angeles';
      expect(new Date('2024-03-15T00:00:00Z').getDate()).toBe(14);
      expect(formatLongDate('2024-03-15', 'en')).toBe('15 March 2024');
    } finally {
      process.env.TZ = zone;
      if (zone === undefined) delete process.env.TZ;
    }
  });

  it('keeps a value that is not a date as it is', () => {
    expect(formatLongDate('soon', 'en')).toBe('soon');
  });

  it('has a format for every locale', () => {
    for (const locale of LOCALES) expect(formatLongDate('2023-12-01', locale)).toMatch(/2023/);
  });
});

describe('formatResetTime: when the swipe likes come back, in the member’s time zone', () => {
  const now = new Date('2026-03-10T09:00:00Z'); // a Tuesday

  it('shows only the time later the same day', () => {
    expect(formatResetTime('2026-03-10T22:59:00Z', 'en', now, 'Europe/Amsterdam')).toBe('23:59');
    expect(formatResetTime('2026-03-10T22:59:00Z', 'de', now, 'Europe/Amsterdam')).toBe('23:59');
  });

  it('adds the weekday when the moment is on another day in the member’s time zone', () => {
    // 23:00 UTC is already Wednesday in Amsterdam, still Tuesday in New York.
    expect(formatResetTime('2026-03-10T23:00:00Z', 'en', now, 'Europe/Amsterdam')).toBe('Wednesday 00:00');
    expect(formatResetTime('2026-03-10T23:00:00Z', 'de', now, 'Europe/Amsterdam')).toBe('Mittwoch, 00:00');
    expect(formatResetTime('2026-03-10T23:00:00Z', 'en', now, 'America/New_York')).toBe('19:00');
  });

  it('uses the locale’s own clock and words', () => {
    expect(formatResetTime('2026-03-11T06:30:00Z', 'fr', now, 'Europe/Paris')).toBe('mercredi 07:30');
    expect(formatResetTime('2026-03-11T06:30:00Z', 'no', now, 'Europe/Oslo')).toBe('onsdag kl. 07:30');
  });

  it('is empty for a value that is not a time', () => {
    expect(formatResetTime('', 'en', now)).toBe('');
    expect(formatResetTime('not a date', 'en', now)).toBe('');
  });
});

describe('resetMoment: when the swipe likes come back, as the sentence says it', () => {
  const now = new Date('2026-03-14T09:00:00Z'); // a Saturday

  it('today, with the time only', () => {
    expect(resetMoment('2026-03-14T22:59:00Z', 'en', now, 'Europe/Amsterdam')).toEqual({ when: 'today', day: 'Saturday', time: '23:59' });
    // Midnight UTC is still Saturday evening in New York.
    expect(resetMoment('2026-03-15T00:00:00Z', 'en', now, 'America/New_York')).toMatchObject({ when: 'today', time: '20:00' });
  });

  it('tomorrow, not "at Sunday 00:00"', () => {
    expect(resetMoment('2026-03-15T00:00:00Z', 'en', now, 'UTC')).toEqual({ when: 'tomorrow', day: 'Sunday', time: '00:00' });
    expect(resetMoment('2026-03-15T00:00:00Z', 'de', now, 'Europe/Berlin')).toEqual({ when: 'tomorrow', day: 'Sonntag', time: '01:00' });
  });

  it('a later day with its weekday', () => {
    expect(resetMoment('2026-03-16T06:30:00Z', 'fr', now, 'Europe/Paris')).toEqual({ when: 'later', day: 'lundi', time: '07:30' });
  });

  it('is null for a value that is not a time', () => {
    expect(resetMoment('', 'en', now)).toBeNull();
  });
});

describe('formatChatDay: the day separators of a chat, in the member’s language and time zone', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it.each([
    ['en', 'Today', 'Yesterday'],
    ['de', 'Heute', 'Gestern'],
    ['fr', 'Aujourd’hui', 'Hier'],
    ['nl', 'Vandaag', 'Gisteren'],
    ['sv', 'I dag', 'I går'],
  ] as const)('%s: today and yesterday in the locale’s own words, capitalised', (locale, today, yesterday) => {
    expect(formatChatDay('2026-11-25T08:00:00Z', locale, now, 'UTC')).toBe(today);
    expect(formatChatDay('2026-11-24T23:59:00Z', locale, now, 'UTC')).toBe(yesterday);
  });

  it('names the weekday within the last week, then the date, with the year only for another year', () => {
    expect(formatChatDay('2026-11-22T10:00:00Z', 'en', now, 'UTC')).toBe('Sunday');
    expect(formatChatDay('2026-11-03T10:00:00Z', 'en', now, 'UTC')).toBe('Tuesday 3 November');
    expect(formatChatDay('2026-11-03T10:00:00Z', 'de', now, 'UTC')).toBe('Dienstag, 3. November');
    expect(formatChatDay('2025-12-30T10:00:00Z', 'en', now, 'UTC')).toBe('30 December 2025');
  });

  it('counts days in the member’s time zone', () => {
    // 23:30 UTC on the 24th is already the 25th in Berlin.
    expect(formatChatDay('2026-11-24T23:30:00Z', 'en', now, 'Europe/Berlin')).toBe('Today');
    expect(chatDayKey('2026-11-24T23:30:00Z', 'Europe/Berlin')).toBe('2026-11-25');
    expect(chatDayKey('2026-11-24T23:30:00Z', 'UTC')).toBe('2026-11-24');
  });

  it('is empty for a value that is not a time', () => {
    expect(formatChatDay('soon', 'en', now)).toBe('');
    expect(chatDayKey('soon')).toBe('');
  });
});

describe('formatClockTime: a chat message’s time under its day', () => {
  it('is the clock time in the locale’s own way, in the member’s time zone', () => {
    expect(formatClockTime('2026-11-24T14:05:00Z', 'en', 'UTC')).toBe('14:05');
    expect(formatClockTime('2026-11-24T14:05:00Z', 'de', 'Europe/Berlin')).toBe('15:05');
    expect(formatClockTime('soon', 'en')).toBe('');
  });
});
