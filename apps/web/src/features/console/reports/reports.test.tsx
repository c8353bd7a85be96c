import type { Report, ReportFigures, ReportTotals, Staff } from '@amora/contracts';
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
  visits: 0,
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
      ...figures({
        visits: 150,
        signups: 40,
        activations: 30,
        first_purchases: 3,
        revenue: [{ currency: 'EUR', count: 4, amount_minor: 5996 }],
      }),
    },
    {
      day: '2026-11-02',
      ...figures({
        visits: 50,
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
  totals: {
    ...figures({ visits: 200, signups: 50 }),
    activations: 40,
    first_purchases: 5,
    revenue: [
      { currency: 'CHF', count: 1, amount_minor: 1500 },
      { currency: 'EUR', count: 6, amount_minor: 7994 },
    ],
    messages_members: 7,
    messages_fictional: 5,
    active_members: 4,
    active_members_average: 2,
    active_members_peak: 4,
  } satisfies ReportTotals,
  funnel: { visits: 200, signups: 50, activations: 40, first_purchases: 5 },
  sources: [
    { lander: 'video', slug: 'eng', network: 'facebook', visits: 120, signups: 30, activations: 24, first_purchases: 3 },
    { lander: '', slug: '', network: '', visits: 80, signups: 20, activations: 16, first_purchases: 2 },
  ],
  sources_left_off: 3,
  rollup: { from: '2026-11-01', to: '2026-11-01', rebuilt_at: '2026-11-02T00:40:00.000Z' },
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
    // Visits are the first figure of each day and of the total.
    expect(within(rows[1]).getAllByRole('cell')[0]).toHaveTextContent('150');
    expect(within(rows[3]).getAllByRole('cell')[0]).toHaveTextContent('200');
    // Up to 31 days the total counts each active member once, with the days' average and peak beside it.
    expect(rows[3]).toHaveTextContent(c('reports.activeDaily', { average: '2', peak: '4' }));
    expect(table).toHaveTextContent(c('reports.activeNote', { count: 31 }));
    expect(screen.getByTestId('report-rollup-note')).toHaveTextContent(
      c('reports.rollupNote', { from: 'Nov 1, 2026', to: 'Nov 1, 2026', rebuilt: 'Nov 2, 2026, 12:40 AM' }),
    );

    // The funnel starts at the visits: 50 signups of 200 visits, 40 activations of 50, 5 first purchases of 40.
    const funnel = screen.getByTestId('report-funnel');
    const steps = within(funnel).getAllByRole('listitem');
    expect(steps.map((step) => step.firstChild?.textContent)).toEqual([
      c('reports.visits'),
      c('reports.signups'),
      c('reports.activations'),
      c('reports.firstPurchases'),
    ]);
    expect(steps[0]).toHaveTextContent('200');
    expect(steps[1]).toHaveTextContent(c('reports.ofStepBefore', { percent: '25%' }));
    expect(steps[2]).toHaveTextContent(c('reports.ofStepBefore', { percent: '80%' }));
    expect(steps[3]).toHaveTextContent(c('reports.ofStepBefore', { percent: '12.5%' }));
    expect(funnel).toHaveTextContent(c('reports.visitsNote'));

    // The funnel per lander, slug and network.
    const sources = screen.getByTestId('report-sources');
    const sourceRows = within(sources).getAllByRole('row');
    expect(sourceRows).toHaveLength(3);
    expect(
      within(sourceRows[0])
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(
      [
        'reports.lander',
        'reports.slug',
        'reports.network',
        'reports.visits',
        'reports.signups',
        'reports.activations',
        'reports.firstPurchases',
      ].map((key) => c(key)),
    );
    expect(
      within(sourceRows[1])
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['eng', 'facebook', '120', '30', '24', '3']);
    expect(within(sourceRows[2]).getByRole('rowheader')).toHaveTextContent(c('reports.otherPages'));
    expect(sources).toHaveTextContent(c('reports.sourcesNote'));
    expect(sources).toHaveTextContent(c('reports.sourcesLeftOff', { count: 3 }));

    const charts = await screen.findAllByTestId('report-chart');
    expect(charts.map((chart) => chart.querySelector('figcaption')?.textContent)).toContain(c('reports.visits'));
    expect(charts.length).toBeGreaterThanOrEqual(8);
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

  it('shows the daily average and peak of active members for a period longer than 31 days, and no rollup note without one', async () => {
    const long: Report = {
      ...report,
      from: '2026-01-01',
      to: '2026-11-02',
      totals: { ...report.totals, active_members: null, active_members_average: 812.4, active_members_peak: 1204 },
      sources: [],
      sources_left_off: 0,
      rollup: null,
    };
    server.use(answer('GET /api/console/reports', () => long));
    renderConsole('/console/reports?from=2026-01-01&to=2026-11-02', 'admin');
    const table = await screen.findByTestId('report-table');
    const total = within(table).getAllByRole('row').at(-1) as HTMLElement;
    const active = within(total).getByTestId('report-active-daily');
    expect(active).toHaveTextContent(c('reports.activeDaily', { average: '812.4', peak: '1,204' }));
    expect(active.parentElement).toHaveTextContent(new RegExp(`^${c('reports.activeDaily', { average: '812.4', peak: '1,204' })}$`));
    expect(screen.queryByTestId('report-rollup-note')).not.toBeInTheDocument();
    expect(screen.getByTestId('report-sources')).toHaveTextContent(c('reports.noSources'));
  });
});
