/** A moment as the console shows it: date and time in the console's language, to the minute. */
export function formatConsoleTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
