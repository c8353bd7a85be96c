import type { SiteAdminView, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from '../console-query-client';
import { consoleRoutes } from '../console-routes';

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

function renderConsole(path: string, role: Staff['role']) {
  server.use(
    answer('GET /api/console/me', () => ({
      staff: { id: 1, email: `${role}@amora.example`, name: 'Sam', role, language: 'en', is_active: true, last_login_at: null },
    })),
  );
  const router = createMemoryRouter(consoleRoutes(), { initialEntries: [path] });
  render(
    <QueryClientProvider client={createConsoleQueryClient({ retry: false })}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

const localized = (en: string) => ({ en, de: `${en} (de)` });
const site: SiteAdminView = {
  id: 2,
  is_default: false,
  company_name: 'Amora B.V.',
  preview_url: 'http://herzklopfen.localhost:3000/',
  name: 'Herzklopfen',
  domain: 'herzklopfen.localhost',
  hosts: [],
  domain_language: 'de',
  languages: ['de', 'en'],
  countries: ['DE', 'AT'],
  default_country: 'DE',
  niche: 1,
  company_id: 1,
  index_title: localized('Dating'),
  description: localized('Find someone'),
  visible_profile_fields: ['gender'],
  visible_profile_notes: [],
  search_fields: ['gender'],
  interests: ['sports'],
  cdn_prefix: '',
  message_credits: 10,
  signup_credits: 20,
  photo_credits: 5,
  gift_credits: 30,
  message_length: 1000,
  minimum_message_costs: { DE: { costs: 10, currency: 'EUR' } },
  support_email: 'help@herzklopfen.example',
  support_phone: '+49 30 1234',
  delete_discount: 50,
  enable_site_entry_popup: 'yes',
  enable_us_footer: false,
  fictional_warning: localized('Some profiles are fictional'),
  fictional_singular: localized('fictional profile'),
  fictional_plural: localized('fictional profiles'),
  fictional_icon: 'star',
  refund_days: 14,
  signups: 'all',
  logged_out_search: false,
  logged_out_search_trafficsource: false,
  member_resell: false,
  moderate_photos: true,
};

const sitesList = () => ({
  sites: [
    {
      id: 2,
      name: 'Herzklopfen',
      domain: 'herzklopfen.localhost',
      niche: 1,
      company_id: 1,
      company_name: 'Amora B.V.',
      countries: ['DE', 'AT'],
      preview_url: site.preview_url,
    },
  ],
  companies: [{ id: 1, name: 'Amora B.V.' }],
});

describe('sites in the console', () => {
  it('lists the sites with a link that opens each in a new tab', async () => {
    server.use(answer('GET /api/console/sites', sitesList));
    renderConsole('/console/sites', 'admin');
    const row = await screen.findByTestId('site-2');
    expect(within(row).getByRole('link', { name: 'Herzklopfen' })).toHaveAttribute('href', '/console/sites/2');
    expect(within(row).getByRole('link', { name: c('sites.open') })).toHaveAttribute('target', '_blank');
  });

  it('saves the settings form and shows a refused value under its field', async () => {
    const sent: Record<string, unknown>[] = [];
    server.use(
      answer('GET /api/console/sites', sitesList),
      answer('GET /api/console/sites/:id', () => site),
      http.put('*/api/console/sites/2', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        if (body.default_country === 'FR') {
          return HttpResponse.json(
            {
              error: 'validation_failed',
              message: 'The default country must be one of the countries',
              field: 'default_country',
              message_key: 'console.sites.errors.defaultCountry',
            },
            { status: 400 },
          );
        }
        return HttpResponse.json({ ...site, ...body });
      }),
    );
    const { user } = renderConsole('/console/sites/2', 'admin');
    const field = await screen.findByTestId('setting-default_country');
    await user.clear(field);
    await user.type(field, 'FR');
    await user.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText(c('sites.errors.defaultCountry'))).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(sent[0]).toMatchObject({ default_country: 'FR', countries: ['DE', 'AT'], fictional_plural: localized('fictional profiles') });

    await user.clear(field);
    await user.type(field, 'AT');
    await user.click(screen.getByTestId('settings-save'));
    expect(await screen.findByTestId('settings-saved')).toBeVisible();
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('previews the landing page with the unsaved settings in a frame that runs nothing, in each language of the draft', async () => {
    const asked: { lang: string | null; firstVisit: string | null; body: Record<string, unknown> }[] = [];
    let saved = 0;
    server.use(
      answer('GET /api/console/sites', sitesList),
      answer('GET /api/console/sites/:id', () => site),
      http.put('*/api/console/sites/2', () => {
        saved++;
        return HttpResponse.json(site);
      }),
      http.post('*/api/console/sites/2/preview', async ({ request }) => {
        const url = new URL(request.url);
        const body = (await request.json()) as Record<string, unknown>;
        asked.push({ lang: url.searchParams.get('lang'), firstVisit: url.searchParams.get('first_visit'), body });
        if (body.name === '') {
          return HttpResponse.json({ error: 'validation_failed', message: 'Too short', field: 'name' }, { status: 400 });
        }
        const title = (body.index_title as Record<string, string>)[url.searchParams.get('lang') ?? 'en'];
        return HttpResponse.json({ html: `<!doctype html><html><body><h1>${title}</h1><p>${String(body.name)}</p></body></html>` });
      }),
    );
    const { user } = renderConsole('/console/sites/2', 'admin');
    const name = await screen.findByTestId('setting-name');
    await user.clear(name);
    await user.type(name, 'Herzflimmern');
    await user.click(screen.getByTestId('settings-preview'));

    const dialog = await screen.findByTestId('site-preview-dialog');
    expect(within(dialog).getByRole('heading', { name: c('sites.preview.title', { site: 'Herzflimmern' }) })).toBeVisible();
    const frame = await within(dialog).findByTitle(c('sites.preview.frame', { site: 'Herzflimmern' }));
    expect(frame).toHaveAttribute('sandbox', 'allow-same-origin');
    expect(frame.getAttribute('srcdoc')).toContain('<h1>Dating (de)</h1><p>Herzflimmern</p>');
    // The domain's language, the form's values as the save would send them, as a returning visitor.
    expect(asked[0]).toMatchObject({ lang: 'de', firstVisit: '0', body: { name: 'Herzflimmern', countries: ['DE', 'AT'] } });

    await user.selectOptions(within(dialog).getByTestId('site-preview-lang'), 'en');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<h1>Dating</h1>'));
    await user.click(within(dialog).getByTestId('site-preview-first-visit'));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ lang: 'en', firstVisit: '1' }));
    await user.click(within(dialog).getByTestId('site-preview-phone'));
    expect(within(dialog).getByTestId('site-preview-frame')).toHaveStyle({ width: '390px' });
    expect(within(dialog).getByTestId('site-preview-phone')).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(dialog).getByTestId('site-preview-close'));
    expect(screen.queryByTestId('site-preview-dialog')).toBeNull();
    // Looking saved nothing; a draft the server refuses says which field to fix.
    expect(saved).toBe(0);
    await user.clear(name);
    await user.click(screen.getByTestId('settings-preview'));
    expect(await screen.findByTestId('site-preview-error')).toHaveTextContent(c('sites.preview.fixField', { field: 'name' }));
    expect(screen.queryByTestId('site-preview-frame')).toBeNull();
  });

  it('shows the card fee refusal on the fee of that method', async () => {
    server.use(
      answer('GET /api/console/sites', sitesList),
      answer('GET /api/console/sites/:id', () => site),
      answer('GET /api/console/sites/:id/payment-methods', () => ({
        countries: [
          {
            country: 'DE',
            no_card_fees: true,
            methods: [
              { method: 'paypal', fee_minor: 0, card: false },
              { method: 'visa', fee_minor: 0, card: true },
            ],
          },
        ],
      })),
      http.put('*/api/console/sites/2/payment-methods', () =>
        HttpResponse.json(
          { error: 'validation_failed', message: 'no', field: 'methods.1.fee_minor', message_key: 'console.sites.errors.cardFee' },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderConsole('/console/sites/2/payment-methods', 'admin');
    const fee = await screen.findByTestId('fee-DE-visa');
    await user.clear(fee);
    await user.type(fee, '30');
    await user.click(screen.getByTestId('methods-save-DE'));
    expect(await screen.findByText(c('sites.errors.cardFee'))).toBeVisible();
    expect(fee).toHaveAttribute('aria-invalid', 'true');
  });

  it('is not there for a moderator', async () => {
    renderConsole('/console/sites', 'moderator');
    expect(await screen.findByTestId('console-forbidden')).toBeVisible();
    expect(screen.queryByTestId('sites-table')).toBeNull();
  });
});
