import { describe, expect, it } from 'vitest';
import type { Site } from '../sites/sites.service';
import { renderEmail } from './templates';

const site = {
  id: 1,
  name: 'Amora',
  domain: 'amora.localhost',
  supportEmail: 'support@amora.example',
  company: { name: 'Amora Media B.V.', address: 'Herengracht 182', city: '1016 BR Amsterdam', country: 'NL' },
} as unknown as Site;

const reset = (locale: string, hours: number) =>
  renderEmail('reset', locale, site, { name: 'Ala', link: 'https://amora.localhost/pl/reset-password/do?token=t', hours });
const deleted = (locale: string, days: number) =>
  renderEmail('deleted', locale, site, { name: 'Ala', link: 'https://amora.localhost/account-deleted?token=t', days });

describe('mail texts that count', () => {
  it('say the hours and days in the plural form of the member’s language', () => {
    expect(reset('pl', 1).text).toContain('Link jest ważny przez 1 godzinę.');
    expect(reset('pl', 2).text).toContain('Link jest ważny przez 2 godziny.');
    expect(reset('pl', 5).text).toContain('Link jest ważny przez 5 godzin.');
    expect(reset('de', 1).text).toContain('Der Link ist 1 Stunde lang gültig.');
    expect(reset('en', 2).html).toContain('The link is valid for 2 hours.');
    expect(deleted('fi', 14).text).toContain('14 päivän kuluessa');
    expect(deleted('en', 1).text).toContain('within 1 day with the link below');
    expect(deleted('pl', 14).html).toContain('W ciągu 14 dni');
  });

  it('put a narrow no-break space before the colon after the button text in French', () => {
    const text = reset('fr', 2).text;
    expect(text).toContain('Ce lien est valable 2 heures.');
    expect(text).toContain('Choisir un nouveau mot de passe\u202f:\nhttps://amora.localhost/');
    expect(text.replace(/https?:\/\/\S+/g, '')).not.toMatch(/[^\u202f][?!:;]/);
  });
});
