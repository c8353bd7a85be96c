import { loadCatalogue, lookup } from '@amora/i18n';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInRoute } from '@/testing/render';
import { LoadingBar } from './loading-bar';

describe('loading bar', () => {
  for (const locale of ['de', 'pl', 'fr'] as const) {
    it(`names the progress bar in the page's language (${locale})`, async () => {
      await renderInRoute(<LoadingBar isLoading />, { path: `/${locale}/members` });
      const name = lookup(loadCatalogue(locale, 'common'), 'common.loading') as string;
      expect(await screen.findByRole('progressbar', { name })).toBeInTheDocument();
      expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull();
    });
  }
});
