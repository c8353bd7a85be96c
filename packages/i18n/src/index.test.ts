import { describe, expect, it } from 'vitest';
import { translate } from './index';

const blocked = (locale: string, count: number) => translate(locale, 'auth.errors.loginBlocked', { count });

describe('translate on the server', () => {
  it('picks the plural form for count by the rules of the language (Intl.PluralRules)', () => {
    expect(blocked('en', 1)).toBe('Too many wrong attempts, the account stays blocked for 1 minute');
    expect(blocked('en', 15)).toBe('Too many wrong attempts, the account stays blocked for 15 minutes');
    expect(blocked('de', 1)).toBe('Zu viele Fehlversuche, das Konto bleibt 1 Minute lang gesperrt');
    expect(blocked('fi', 1)).toBe('Liian monta väärää yritystä, tili pysyy estettynä 1 minuutin');
    expect(blocked('pl', 1)).toMatch(/ 1 minutę$/);
    expect(blocked('pl', 2)).toMatch(/ 2 minuty$/);
    expect(blocked('pl', 5)).toMatch(/ 5 minut$/);
    expect(blocked('pl', 24)).toMatch(/ 24 minuty$/);
    expect(blocked('pl', 1.5)).toMatch(/ 1.5 minuty$/);
    expect(blocked('fr', 0)).toMatch(/ 0 minute$/);
    expect(blocked('fr', 1_000_000)).toMatch(/ 1000000 de minutes$/);
  });

  it('uses the fallback language’s own rules when it falls back, and plain keys as before', () => {
    expect(blocked('xx', 1)).toBe(translate('it', 'auth.errors.loginBlocked', { count: 1 }));
    expect(translate('de', 'reset.subject', { site: 'Amora', count: 3 }, 'emails')).toBe(
      translate('de', 'reset.subject', { site: 'Amora' }, 'emails'),
    );
    expect(translate('en', 'auth.errors.loginBlocked')).toBe('auth.errors.loginBlocked');
  });
});
