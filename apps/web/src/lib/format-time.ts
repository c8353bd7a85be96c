import { LOCALE_INFO, type Locale } from '@amora/contracts/core';

/**
 * Dates and times for members, in the page's language (its Intl locale from LOCALE_INFO: en → en-GB,
 * no → nb-NO) and, for moments in time, the member's own time zone (DESIGN: times are UTC, the client
 * formats them). `timeZone`: a component passes useTimeZone() (lib/page-request.tsx): undefined in the
 * browser (its own zone), and on the server, rendering a member's page, the browser's zone as its cookie says.
 */

/** Whether `name` is an IANA time zone this runtime knows (the server checks the browser's cookie with it). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The browser's own time zone (IANA name), for the cookie. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A calendar date such as a terms version ('2023-12-01') in words: "1 December 2023", "1. Dezember 2023". */
export function formatLongDate(isoDate: string, locale: Locale): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return new Intl.DateTimeFormat(LOCALE_INFO[locale].iso, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The calendar day of a moment in a time zone, to compare two moments by day. */
function dayOf(date: Date, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/**
 * A moment later today or in the coming days, such as when the swipe game's likes come back: the time
 * ("14:30"), with the weekday when it is not today ("Tuesday 00:00"). Empty for a value that is not a time.
 */
export function formatResetTime(iso: string, locale: Locale, now: Date = new Date(), timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const isToday = dayOf(date, timeZone) === dayOf(now, timeZone);
  return new Intl.DateTimeFormat(LOCALE_INFO[locale].iso, {
    ...(isToday ? {} : { weekday: 'long' }),
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  }).format(date);
}

/**
 * When the swipe game's likes come back, as its sentence needs it ("New likes tomorrow at 00:00"): which day in
 * the member's time zone (today, tomorrow, or later with its weekday) and the time. Null for a value that is not
 * a time.
 */
export function resetMoment(
  iso: string,
  locale: Locale,
  now: Date = new Date(),
  timeZone?: string,
): { when: 'today' | 'tomorrow' | 'later'; day: string; time: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const daysAhead = -daysBetween(date, now, timeZone);
  const lang = LOCALE_INFO[locale].iso;
  return {
    when: daysAhead <= 0 ? 'today' : daysAhead === 1 ? 'tomorrow' : 'later',
    day: new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone }).format(date),
    // Two-digit hours, as the clock face of a reset reads ("00:00", not "0:00").
    time: new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone }).format(date),
  };
}

/**
 * When a chat message was sent, short, as a chat list shows it: the time today ("14:30"), the weekday within the
 * last week ("Tue"), else the date ("3 Nov"). Empty for a value that is not a time.
 */
export function formatChatTime(iso: string, locale: Locale, now: Date = new Date(), timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const lang = LOCALE_INFO[locale].iso;
  if (dayOf(date, timeZone) === dayOf(now, timeZone)) {
    return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone }).format(date);
  }
  const options: Intl.DateTimeFormatOptions =
    now.getTime() - date.getTime() < 6 * 86_400_000 ? { weekday: 'short' } : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(lang, { ...options, timeZone }).format(date);
}

/** Whole calendar days from `date` to `now` in a time zone (0: the same day, 1: the day before). */
function daysBetween(date: Date, now: Date, timeZone: string | undefined): number {
  const midnight = (d: Date) => Date.parse(`${dayOf(d, timeZone)}T00:00:00Z`);
  return Math.round((midnight(now) - midnight(date)) / 86_400_000);
}

/** The calendar day of `date` in a time zone, as a key ("2026-11-25"): messages of one day share it. */
export function chatDayKey(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dayOf(date, timeZone);
}

/**
 * The day a chat's messages were written, as the separator above them says it: "Today", "Yesterday" (the
 * locale's own words, from Intl.RelativeTimeFormat, capitalised), the weekday within the last week ("Monday"), the
 * date this year ("Tuesday 3 November") and the date with its year before that. Empty for a value that is not a time.
 */
export function formatChatDay(iso: string, locale: Locale, now: Date = new Date(), timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const lang = LOCALE_INFO[locale].iso;
  const days = daysBetween(date, now, timeZone);
  if (days === 0 || days === 1) {
    const word = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(-days, 'day');
    return word.charAt(0).toLocaleUpperCase(lang) + word.slice(1);
  }
  const sameYear = dayOf(date, timeZone).slice(0, 4) === dayOf(now, timeZone).slice(0, 4);
  const options: Intl.DateTimeFormatOptions =
    days > 1 && days < 7
      ? { weekday: 'long' }
      : sameYear
        ? { weekday: 'long', day: 'numeric', month: 'long' }
        : { day: 'numeric', month: 'long', year: 'numeric' };
  return new Intl.DateTimeFormat(lang, { ...options, timeZone }).format(date);
}

/** The clock time of a moment ("14:30", "2:30 pm"), for a chat message under its day's separator. */
export function formatClockTime(iso: string, locale: Locale, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(LOCALE_INFO[locale].iso, { hour: 'numeric', minute: '2-digit', timeZone }).format(date);
}
