import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { Footer } from './footer';

describe('footer labels', () => {
  it('put a narrow no-break space before the colon in French, and call the registration number the trade register number', async () => {
    await renderInRoute(<Footer />, { path: '/fr/', settings: settingsFixture({ languages: ['en', 'fr'] }) });
    const footer = await screen.findByTestId('footer');
    // textContent as is: toHaveTextContent would fold the narrow space into a plain one.
    expect(footer.textContent).toContain('N° au registre du commerce\u202f: 90123456');
    expect(footer.textContent).toContain('N° TVA\u202f: NL865432109B01');
    expect(footer.textContent).not.toMatch(/[^\u202f][:;?!]/);
  });

  it('keep the plain colon in English', async () => {
    await renderInRoute(<Footer />, { path: '/', settings: settingsFixture() });
    const footer = await screen.findByTestId('footer');
    expect(footer).toHaveTextContent('Trade register number: 90123456');
    expect(footer).toHaveTextContent('VAT: NL865432109B01');
  });
});
