import type { MemberDetail, MemberHit, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from '../console-query-client';
import { consoleRoutes } from '../console-routes';

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

const staffOf = (role: Staff['role']): Staff => ({
  id: 3,
  email: `${role}@amora.example`,
  name: `Sam ${role}`,
  role,
  language: 'en',
  is_active: true,
  last_login_at: null,
});

function renderConsole(path: string, role: Staff['role']) {
  server.use(answer('GET /api/console/me', () => ({ staff: staffOf(role) })));
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

const hit = (id: number, name: string): MemberHit => ({
  user_id: id,
  profile_id: id + 100,
  email: `${name.toLowerCase()}@example.com`,
  name,
  status: 'confirmed',
  site: { id: 2, name: 'Herzklopfen', domain: 'herzklopfen.example' },
  signup_date: '2026-10-01T10:00:00.000Z',
});

const detail = (overrides: Partial<MemberDetail['account']> = {}): MemberDetail => ({
  account: {
    user_id: 5,
    email: 'ada@example.com',
    status: 'confirmed',
    language: 'de',
    site: { id: 2, name: 'Herzklopfen', domain: 'herzklopfen.example' },
    signup_date: '2026-10-01T10:00:00.000Z',
    confirmed_at: '2026-10-01T10:05:00.000Z',
    deleted_at: null,
    notifications_disabled: [],
    paid_user: true,
    credits: 30,
    credit_debt: 0,
    ...overrides,
  },
  profile: {
    id: 105,
    name: 'Ada',
    status: 'active',
    country: 'DE',
    region: null,
    city: 'Berlin',
    birth_date: '1990-01-01',
    gender: 'female',
    about: 'Hello',
    is_invisible: false,
    fields: {},
    photos: [{ id: 9, status: 'active', width: 600, height: 800, is_main: true, created_at: '2026-10-02T10:00:00.000Z' }],
  },
  orders: [
    {
      id: 77,
      status: 'paid',
      method: 'ideal',
      provider: 'sandbox',
      credits: 300,
      amount_minor: 6999,
      currency: 'EUR',
      refunded_minor: 0,
      created_at: '2026-10-03T10:00:00.000Z',
      paid_at: '2026-10-03T10:01:00.000Z',
      events: [{ status: 'paid', created_at: '2026-10-03T10:01:00.000Z' }],
    },
  ],
  sessions: [],
  complaints: [],
  reports_by: [],
  reports_about: [],
  sanctions: [],
  direct_debit: { blocked: false, mandates: [] },
  login_lockout: { locked: true, attempts: 5, max: 5, retry_after_seconds: 600 },
  reactivation_until: null,
});

beforeAll(async () => {
  await i18next.loadNamespaces('console');
});

describe('finding a member', () => {
  it('searches every site by the query in the address, pages, and moves through the rows with the arrow keys', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      answer('GET /api/console/members', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query);
        return { members: [hit(5, 'Ada'), hit(6, 'Bo')], page: Number(query.get('page') ?? 1), pages: 2, total: 27 };
      }),
    );
    const { router, user } = renderConsole('/console/members?q=ada', 'support');
    const table = await screen.findByTestId('members-table');
    expect(asked[0].get('q')).toBe('ada');
    expect(within(table).getByText('ada@example.com')).toBeVisible();
    expect(within(table).getAllByText('Herzklopfen')).toHaveLength(2);
    expect(screen.getByText(c('support.total', { count: 27 }))).toBeVisible();

    const links = within(table).getAllByRole('link');
    links[0].focus();
    await user.keyboard('{ArrowDown}');
    expect(links[1]).toHaveFocus();

    await user.click(screen.getByTestId('members-next'));
    expect(router.state.location.search).toBe('?q=ada&page=2');
  });

  it('says when nothing matches', async () => {
    server.use(answer('GET /api/console/members', () => ({ members: [], page: 1, pages: 1, total: 0 })));
    renderConsole('/console/members?q=nobody', 'moderator');
    expect(await screen.findByTestId('members-empty')).toHaveTextContent(c('support.noResults', { q: 'nobody' }));
  });
});

describe("a member's page", () => {
  it('shows the account read only to a moderator, without actions', async () => {
    server.use(answer('GET /api/console/members/:userId', () => detail()));
    renderConsole('/console/members/5', 'moderator');
    expect(await screen.findByTestId('member-account')).toHaveTextContent('ada@example.com');
    expect(screen.getByText(c('support.readOnly'))).toBeVisible();
    expect(screen.queryByTestId('member-actions')).toBeNull();
    expect(screen.getByTestId('member-lockout')).toHaveTextContent(c('support.account.lockoutLocked', { attempts: 5, max: 5, count: 10 }));
  });

  it('adjusts credits with an amount and a reason after confirming, and shows a refusal in the console’s words', async () => {
    const sent: unknown[] = [];
    server.use(
      answer('GET /api/console/members/:userId', () => detail()),
      answer('POST /api/console/members/:userId/credits', async ({ request }) => {
        sent.push(await request.json());
        return { balance: 45 };
      }),
      http.post('*/api/console/members/5/orders/77/refund', () =>
        HttpResponse.json(
          { error: 'refund_above_limit', message: 'above', message_key: 'console.support.errors.refundAboveLimit' },
          { status: 403 },
        ),
      ),
    );
    const { user } = renderConsole('/console/members/5', 'support');
    await user.click(await screen.findByTestId('action-credits'));
    const dialog = await screen.findByTestId('support-dialog');
    await user.type(within(dialog).getByLabelText(c('support.actions.amount')), '15');
    await user.type(within(dialog).getByLabelText(c('support.actions.reason')), 'goodwill after an outage');
    await user.click(within(dialog).getByTestId('support-confirm'));
    expect(await screen.findByText(c('support.actions.done'))).toBeVisible();
    expect(sent).toEqual([{ amount: 15, reason: 'goodwill after an outage' }]);

    await user.click(screen.getByRole('tab', { name: c('support.tabs.orders') }));
    await user.click(await screen.findByTestId('refund-77'));
    const refund = await screen.findByTestId('support-dialog');
    await user.type(within(refund).getByLabelText(c('support.actions.reason')), 'not satisfied');
    await user.click(within(refund).getByTestId('support-confirm'));
    expect(await within(refund).findByRole('alert')).toHaveTextContent(c('support.errors.refundAboveLimit'));
  });

  it('moves between the tabs with the arrow keys', async () => {
    server.use(answer('GET /api/console/members/:userId', () => detail()));
    const { user } = renderConsole('/console/members/5', 'admin');
    const account = await screen.findByRole('tab', { name: c('support.tabs.account') });
    account.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: c('support.tabs.profile') })).toHaveFocus();
    expect(await screen.findByRole('img', { name: c('support.profile.photoAlt', { id: 9, status: 'active' }) })).toHaveAttribute(
      'src',
      '/api/console/members/5/photos/9?v=thumb',
    );
    expect(screen.getByTestId('action-erase')).toBeVisible();
  });
});
