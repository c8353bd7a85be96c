import type { Mailing, SiteAdminView, Staff } from '@amora/contracts';
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
      staff: { id: 1, email: `${role}@amora.example`, name: 'Ada', role, language: 'en', is_active: true, last_login_at: null },
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
  company_name: 'Heartline Digital Ltd',
  preview_url: 'http://herzklopfen.localhost:3000/',
  name: 'Herzklopfen',
  domain: 'herzklopfen.localhost',
  hosts: [],
  domain_language: 'de-DE',
  languages: ['de', 'en'],
  countries: ['DE'],
  default_country: 'DE',
  niche: 6,
  company_id: 5,
  index_title: localized('Dating'),
  description: localized('Find someone'),
  visible_profile_fields: [],
  visible_profile_notes: [],
  search_fields: [],
  interests: [],
  cdn_prefix: '',
  message_credits: 10,
  signup_credits: 20,
  photo_credits: 5,
  gift_credits: 30,
  message_length: 1000,
  minimum_message_costs: {},
  support_email: 'hilfe@herzklopfen.example',
  support_phone: '+353 1-555 0147',
  delete_discount: 40,
  enable_site_entry_popup: 'yes',
  enable_us_footer: false,
  fictional_warning: localized('Some profiles are fictional'),
  fictional_singular: localized('fictional profile'),
  fictional_plural: localized('fictional profiles'),
  fictional_icon: 'star',
  refund_days: 30,
  signups: 'all',
  logged_out_search: false,
  logged_out_search_trafficsource: false,
  member_resell: false,
  moderate_photos: false,
};

const sitesList = () => ({
  sites: [
    {
      id: 2,
      name: 'Herzklopfen',
      domain: 'herzklopfen.localhost',
      niche: 6,
      company_id: 5,
      company_name: 'Heartline Digital Ltd',
      countries: ['DE'],
      preview_url: site.preview_url,
    },
  ],
  companies: [{ id: 5, name: 'Heartline Digital Ltd' }],
});

const NOW = '2026-11-29T10:00:00.000Z';
function mailing(over: Partial<Mailing> = {}): Mailing {
  return {
    id: 7,
    site_id: 2,
    site_name: 'Herzklopfen',
    kind: 'news',
    status: 'draft',
    subject: 'Videoprofile sind da',
    send_at: null,
    created_at: NOW,
    created_by: { id: 1, name: 'Ada' },
    progress: { recipients: 0, queued: 0, sent: 0, failed: 0, not_sent: 0 },
    texts: { de: { subject: 'Videoprofile sind da', body: 'Zeig dich im Video.' } },
    default_locale: 'de',
    locales: ['de', 'en'],
    updated_at: NOW,
    started_at: null,
    finished_at: null,
    cancelled_at: null,
    opted_in: 42,
    ...over,
  };
}

const refusal = (field: string, key: string) =>
  HttpResponse.json({ error: 'validation_failed', message: 'refused', field, message_key: key }, { status: 400 });

describe('news and offers in the console', () => {
  it('writes a mailing in the site’s languages, previews it, tests it to the admin and sends it', async () => {
    const saved: unknown[] = [];
    const tests: unknown[] = [];
    const sends: unknown[] = [];
    let current = mailing();
    server.use(
      answer('GET /api/console/sites', sitesList),
      answer('GET /api/console/sites/:id', () => site),
      http.post('*/api/console/mailings/preview', async ({ request }) => {
        const body = (await request.json()) as { subject: string; body: string; locale: string };
        return HttpResponse.json({
          subject: body.subject,
          html: `<!DOCTYPE html><html lang="${body.locale}"><body><h1>${body.subject}</h1><p>${body.body}</p></body></html>`,
          text: body.body,
        });
      }),
      http.post('*/api/console/mailings', async ({ request }) => {
        const body = (await request.json()) as Pick<Mailing, 'texts' | 'kind'>;
        saved.push(body);
        current = mailing({ texts: body.texts, kind: body.kind });
        return HttpResponse.json(current, { status: 201 });
      }),
      http.put('*/api/console/mailings/7', async ({ request }) => {
        const body = (await request.json()) as Pick<Mailing, 'texts' | 'kind'>;
        saved.push(body);
        current = mailing({ texts: body.texts, kind: body.kind });
        return HttpResponse.json(current);
      }),
      answer('GET /api/console/mailings/:id', () => current),
      http.post('*/api/console/mailings/7/test', async ({ request }) => {
        tests.push(await request.json());
        return HttpResponse.json({ to: 'admin@amora.example' });
      }),
      http.post('*/api/console/mailings/7/send', async ({ request }) => {
        sends.push(await request.json());
        current = mailing({ ...current, status: 'scheduled', send_at: NOW });
        return HttpResponse.json(current);
      }),
    );
    const { user, router } = renderConsole('/console/mailings/new', 'admin');
    await screen.findByTestId('mailing-form');

    // The site's main language first (from its domain language), then the others it offers.
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([c('mailings.compose.mainLanguage', { language: 'Deutsch' }), 'English']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    await user.type(screen.getByRole('textbox', { name: new RegExp(c('mailings.compose.subject')) }), 'Videoprofile sind da');
    await user.type(screen.getByTestId('mailing-body'), 'Zeig dich im Video.');
    await user.selectOptions(screen.getByRole('combobox', { name: new RegExp(c('mailings.compose.kind')) }), 'promotions');

    // The preview is the server's mail in a frame that runs nothing.
    await user.click(screen.getByTestId('mailing-preview'));
    const frame = await screen.findByTitle(c('mailings.compose.previewFrame'));
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('<h1>Videoprofile sind da</h1><p>Zeig dich im Video.</p>');
    expect(saved).toHaveLength(0);

    // A test saves the draft first and goes to the admin's own address, in the open language.
    await user.click(screen.getByTestId('mailing-test'));
    expect(await screen.findByTestId('mailing-test-sent')).toHaveTextContent(
      c('mailings.compose.testSent', { language: 'Deutsch', email: 'admin@amora.example' }),
    );
    expect(saved[0]).toEqual({
      site_id: 2,
      kind: 'promotions',
      texts: { de: { subject: 'Videoprofile sind da', body: 'Zeig dich im Video.' } },
    });
    expect(tests).toEqual([{ locale: 'de' }]);
    expect(router.state.location.pathname).toBe('/console/mailings/7');
    expect(await screen.findByTestId('mailing-opted-in')).toHaveTextContent(c('mailings.optedIn', { count: 42, site: 'Herzklopfen' }));
    // The form stayed as it was when the address took the new mailing's id.
    expect(screen.getByRole('heading', { name: c('mailings.compose.titleDraft') })).toBeVisible();
    expect(screen.getByTestId('mailing-subject')).toHaveValue('Videoprofile sind da');
    expect(screen.getByTestId('mailing-test-sent')).toBeVisible();

    // An English text of its own: members who read English get it.
    await user.click(screen.getByTestId('mailing-tab-en'));
    await user.type(screen.getByTestId('mailing-subject'), 'Video profiles are here');
    await user.type(screen.getByTestId('mailing-body'), 'Show yourself on video.');

    // Sending asks first, naming how many members chose these mails.
    await user.click(screen.getByTestId('mailing-send'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(c('mailings.compose.confirmText', { count: 42, site: 'Herzklopfen' }))).toBeVisible();
    expect(within(dialog).getByText(c('mailings.compose.confirmNow'))).toBeVisible();
    expect(saved.at(-1)).toEqual({
      site_id: 2,
      kind: 'promotions',
      texts: {
        de: { subject: 'Videoprofile sind da', body: 'Zeig dich im Video.' },
        en: { subject: 'Video profiles are here', body: 'Show yourself on video.' },
      },
    });
    await user.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(sends).toEqual([{ send_at: null }]));
    // Sent: no more form, its status and progress instead.
    expect(await screen.findByTestId('mailing-progress')).toBeVisible();
    expect(screen.getByTestId('mailing-status')).toHaveTextContent(c('mailings.statuses.scheduled'));
    expect(screen.queryByTestId('mailing-form')).toBeNull();
  });

  it('shows the server’s refusal of a language on its tab and field', async () => {
    server.use(
      answer('GET /api/console/sites', sitesList),
      answer('GET /api/console/sites/:id', () => site),
      http.post('*/api/console/mailings', () => refusal('texts.de', 'console.mailings.errors.defaultLocale')),
    );
    const { user } = renderConsole('/console/mailings/new', 'admin');
    await user.click(await screen.findByTestId('mailing-tab-en'));
    await user.type(screen.getByTestId('mailing-subject'), 'Only English');
    await user.type(screen.getByTestId('mailing-body'), 'Text');
    await user.click(screen.getByTestId('mailing-save'));
    expect(await screen.findByTestId('mailing-field-error')).toHaveTextContent(`Deutsch: ${c('mailings.errors.defaultLocale')}`);
    expect(screen.getByTestId('mailing-tab-de')).toHaveClass('text-danger');
    await user.click(screen.getByTestId('mailing-tab-de'));
    expect(screen.getByTestId('mailing-subject')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(c('mailings.errors.defaultLocale'), { selector: '.invalid-feedback' })).toBeVisible();
  });

  it('lets support read a mailing and its progress, and change nothing', async () => {
    server.use(
      answer('GET /api/console/mailings/:id', () =>
        mailing({ status: 'sending', progress: { recipients: 40, queued: 12, sent: 27, failed: 1, not_sent: 0 }, send_at: NOW }),
      ),
    );
    renderConsole('/console/mailings/7', 'support');
    expect(await screen.findByTestId('mailing-progress-sent')).toHaveTextContent('27');
    expect(screen.getByTestId('mailing-progress-queued')).toHaveTextContent('12');
    expect(screen.getByText(c('mailings.view.readOnly'))).toBeVisible();
    expect(screen.queryByTestId('mailing-form')).toBeNull();
    expect(screen.queryByTestId('mailing-cancel')).toBeNull();
    expect(screen.getByText('Zeig dich im Video.')).toBeVisible();
  });

  it('cancels a mailing while it sends, after asking', async () => {
    let current = mailing({ status: 'sending', progress: { recipients: 10, queued: 4, sent: 6, failed: 0, not_sent: 0 } });
    let cancelled = 0;
    server.use(
      answer('GET /api/console/mailings/:id', () => current),
      http.post('*/api/console/mailings/7/cancel', () => {
        cancelled++;
        current = mailing({
          status: 'cancelled',
          cancelled_at: NOW,
          progress: { recipients: 10, queued: 0, sent: 6, failed: 0, not_sent: 4 },
        });
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderConsole('/console/mailings/7', 'admin');
    await user.click(await screen.findByTestId('mailing-cancel'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(c('mailings.view.cancelText'))).toBeVisible();
    await user.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('mailing-status')).toHaveTextContent(c('mailings.statuses.cancelled')));
    expect(cancelled).toBe(1);
    expect(screen.getByTestId('mailing-progress-notSent')).toHaveTextContent('4');
    expect(screen.queryByTestId('mailing-cancel')).toBeNull();
  });

  it('lists the mailings with their progress, and offers a new one to admins only', async () => {
    server.use(
      answer('GET /api/console/mailings', () => ({
        mailings: [
          {
            id: 7,
            site_id: 2,
            site_name: 'Herzklopfen',
            kind: 'promotions' as const,
            status: 'sent' as const,
            subject: 'Doppelte Credits',
            send_at: NOW,
            created_at: NOW,
            created_by: { id: 1, name: 'Ada' },
            progress: { recipients: 40, queued: 0, sent: 39, failed: 1, not_sent: 0 },
          },
        ],
        page: 1,
        pages: 1,
        total: 1,
      })),
    );
    renderConsole('/console/mailings', 'support');
    const row = await screen.findByTestId('mailing-7');
    expect(within(row).getByRole('link', { name: 'Doppelte Credits' })).toHaveAttribute('href', '/console/mailings/7');
    expect(row).toHaveTextContent(c('mailings.progressCell', { sent: 39, recipients: 40 }));
    expect(row).toHaveTextContent(c('mailings.kinds.promotions'));
    expect(screen.queryByTestId('mailing-new')).toBeNull();
  });
});
