import { LOCALE_INFO, type Locale } from '@amora/contracts/core';

/**
 * Dates and times for members, in the page's language (its Intl locale from LOCALE_INFO: en → en-GB,
 * no → nb-NO) and, for moments in time, the member's own time zone (DESIGN: times are UTC, the client
 * formats them). `timeZone` is there for tests; pages leave it to the browser.
 */

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
