import type { Report, ReportFigures, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from '../console-query-client';
import { consoleRoutes } from '../console-routes';

// The test DOM draws no canvas: the chart shows its title and its series' names instead of uPlot.
vi.mock('./figure-chart', () => ({
  FigureChart: ({ title, series }: { title: string; series: { label: string }[] }) => (
    <figure data-testid="report-chart">
      <figcaption>{title}</figcaption>
      {series.map((s) => s.label).join(', ')}
    </figure>
  ),
}));

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

function renderConsole(path: string, role: Staff['role']) {
  server.use(
    answer('GET /api/console/me', () => ({
      staff: { id: 1, email: `${role}@amora.example`, name: 'Sam', role, language: 'en', is_active: true, last_login_at: null },
    })),
    answer('GET /api/console/sites', () => ({
      sites: [
        {
          id: 1,
          name: 'Amora',
          domain: 'amora.localhost',
          niche: 0,
          company_id: 1,
          company_name: 'Amora B.V.',
          countries: ['NL'],
          preview_url: 'http://localhost:3000/',
        },
        {
          id: 2,
          name: 'Herzklopfen',
          domain: 'herzklopfen.localhost',
          niche: 1,
          company_id: 1,
          company_name: 'Amora B.V.',
          countries: ['DE'],
          preview_url: 'http://herzklopfen.localhost:3000/',
        },
      ],
      companies: [],
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

const figures = (overrides: Partial<ReportFigures> = {}): ReportFigures => ({
  visits: null,
  signups: 0,
  activations: 0,
  first_purchases: 0,
  revenue: [],
  refunds: [],
  chargebacks: [],
  messages_members: 0,
  messages_fictional: 0,
  active_members: 0,
  ...overrides,
});

const report: Report = {
  site_id: null,
  from: '2026-11-01',
  to: '2026-11-02',
  days: [
    {
      day: '2026-11-01',
      ...figures({ signups: 40, activations: 30, first_purchases: 3, revenue: [{ currency: 'EUR', count: 4, amount_minor: 5996 }] }),
    },
    {
      day: '2026-11-02',
      ...figures({
        signups: 10,
        activations: 10,
        first_purchases: 2,
        revenue: [
          { currency: 'CHF', count: 1, amount_minor: 1500 },
          { currency: 'EUR', count: 2, amount_minor: 1998 },
        ],
        messages_members: 7,
        messages_fictional: 5,
        active_members: 4,
      }),
    },
  ],
  totals: figures({
    signups: 50,
    activations: 40,
    first_purchases: 5,
    revenue: [
      { currency: 'CHF', count: 1, amount_minor: 1500 },
      { currency: 'EUR', count: 6, amount_minor: 7994 },
    ],
    messages_members: 7,
    messages_fictional: 5,
    active_members: 4,
  }),
  funnel: { visits: null, signups: 50, activations: 40, first_purchases: 5 },
  not_recorded: ['visits', 'per_lander'],
};

describe('the reports page', () => {
  it('is a section for admins only', async () => {
    renderConsole('/console', 'support');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: c('nav.reports') })).not.toBeInTheDocument();
  });

  it('shows the days, the totals, the funnel, a chart per figure and the CSV link, and asks again for another period', async () => {
    const asked: string[] = [];
    server.use(
      answer('GET /api/console/reports', ({ request }) => {
        asked.push(new URL(request.url).search);
        return report;
      }),
    );
    const { user, router } = renderConsole('/console/reports', 'admin');
    const table = await screen.findByTestId('report-table');
    const rows = within(table).getAllByRole('row');
    // Header, two days, totals.
    expect(rows).toHaveLength(4);
    expect(within(rows[3]).getByRole('rowheader')).toHaveTextContent(c('reports.total'));
    expect(rows[3]).toHaveTextContent('€79.94');
    expect(rows[3]).toHaveTextContent('CHF');
    expect(rows[1]).toHaveTextContent(c('reports.notRecorded'));

    const funnel = screen.getByTestId('report-funnel');
    expect(funnel).toHaveTextContent(c('reports.ofStepBefore', { percent: '80%' }));
    expect(funnel).toHaveTextContent(c('reports.ofStepBefore', { percent: '12.5%' }));

    const charts = await screen.findAllByTestId('report-chart');
    expect(charts.length).toBeGreaterThanOrEqual(7);
    expect(screen.getByText(c('reports.days', { count: 2 }))).toBeInTheDocument();
    expect(screen.getByTestId('report-csv')).toHaveAttribute('href', '/api/console/reports.csv');

    await screen.findByRole('option', { name: 'Herzklopfen (herzklopfen.localhost)' });
    await user.selectOptions(screen.getByLabelText(c('reports.site')), '2');
    await user.clear(screen.getByLabelText(c('reports.from')));
    await user.type(screen.getByLabelText(c('reports.from')), '2026-10-01');
    await user.click(screen.getByTestId('report-show'));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?site=2&from=2026-10-01&to=2026-11-02'));
    await vi.waitFor(() => expect(asked.at(-1)).toBe('?site=2&from=2026-10-01&to=2026-11-02'));
    expect(screen.getByTestId('report-csv')).toHaveAttribute('href', '/api/console/reports.csv?site=2&from=2026-10-01&to=2026-11-02');
  });
});
