import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';

const languages = ['en', 'de', 'fr', 'pl'] as const;

describe('legal pages count the refund days in the plural form of the page language', () => {
  it.each([
    ['en', 1, 'within 1 day of the date of purchase'],
    ['en', 14, 'within 14 days of the date of purchase'],
    ['de', 1, 'innerhalb von 1 Tag nach dem Kaufdatum'],
    ['de', 14, 'innerhalb von 14 Tagen nach dem Kaufdatum'],
    ['pl', 1, 'w ciągu 1 dnia od daty zakupu'],
    ['pl', 3, 'w ciągu 3 dni od daty zakupu'],
    ['fr', 1, "dans un délai de 1 jour à compter de la date d'achat"],
  ] as const)('%s, %i days', async (locale, days, text) => {
    await renderApp(`/${locale === 'en' ? '' : `${locale}/`}pages/return-policy`, {
      settings: settingsFixture({ refund_days: days, languages: [...languages] }),
    });
    const page = await screen.findByTestId('page-returnPolicy');
    expect(page).toHaveTextContent(text);
  });
});
