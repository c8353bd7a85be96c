import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { errorText } from './error-text';

const blocked = (minutes: number) =>
  new ApiRequestError(429, { error: 'login_blocked', message: 'blocked', message_key: 'auth.errors.loginBlocked', minutes });
const photoLimit = (limit: number) => new ApiRequestError(409, { error: 'photo_limit', message: 'limit', limit });

async function tIn(locale: string) {
  await i18next.loadLanguages(locale);
  return i18next.getFixedT(locale);
}

describe('errorText counts in the plural form of the language', () => {
  it('says how long a login stays blocked (pl: 1 minutę, 2–4 minuty, 5+ minut; fi: 1 minuutin)', async () => {
    const pl = await tIn('pl');
    expect(errorText(pl, blocked(1))).toBe('Zbyt wiele nieudanych prób, konto pozostaje zablokowane przez 1 minutę');
    expect(errorText(pl, blocked(3))).toBe('Zbyt wiele nieudanych prób, konto pozostaje zablokowane przez 3 minuty');
    expect(errorText(pl, blocked(15))).toBe('Zbyt wiele nieudanych prób, konto pozostaje zablokowane przez 15 minut');
    expect(errorText(pl, blocked(22))).toBe('Zbyt wiele nieudanych prób, konto pozostaje zablokowane przez 22 minuty');
    const fi = await tIn('fi');
    expect(errorText(fi, blocked(1))).toBe('Liian monta väärää yritystä, tili pysyy estettynä 1 minuutin');
    expect(errorText(fi, blocked(15))).toBe('Liian monta väärää yritystä, tili pysyy estettynä 15 minuuttia');
    const en = await tIn('en');
    expect(errorText(en, blocked(1))).toBe('Too many wrong attempts, the account stays blocked for 1 minute');
    expect(errorText(en, blocked(15))).toBe('Too many wrong attempts, the account stays blocked for 15 minutes');
  });

  it('names the photo limit the server sends', async () => {
    expect(errorText(await tIn('pl'), photoLimit(3))).toBe('Osiągnięto limit 3 zdjęć.');
    expect(errorText(await tIn('de'), photoLimit(25))).toBe('Du hast das Maximum von 25 Fotos erreicht.');
    expect(errorText(await tIn('en'), photoLimit(1))).toBe('You have reached the maximum of 1 photo.');
  });
});
