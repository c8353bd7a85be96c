import type { ModerationItem, ModerationQueue, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from '../console-query-client';
import { consoleRoutes } from '../console-routes';

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

const moderator: Staff = {
  id: 2,
  email: 'mo@amora.example',
  name: 'Mo Moderator',
  role: 'moderator',
  language: 'en',
  is_active: true,
  last_login_at: null,
};

function renderConsole(path: string) {
  server.use(answer('GET /api/console/me', () => ({ staff: moderator })));
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

const queue = (overrides: Partial<ModerationQueue> = {}): ModerationQueue => ({
  items: [
    {
      kind: 'message_report',
      id: 7,
      site_id: 1,
      created_at: '2026-11-28T10:00:00.000Z',
      reference: 'C-AAAA2222',
      summary: 'Report of message 41',
      reporter: { name: 'Ada', email: 'ada@example.com' },
      reported: { profile_id: 12, user_id: 5, name: 'Bo', is_fictional: false },
      resolution: null,
      handled_at: null,
    },
    {
      kind: 'photo',
      id: 3,
      site_id: 1,
      created_at: '2026-11-28T11:00:00.000Z',
      reference: null,
      summary: 'Cy',
      reporter: null,
      reported: { profile_id: 13, user_id: 6, name: 'Cy', is_fictional: false },
      resolution: null,
      handled_at: null,
    },
  ],
  page: 1,
  page_size: 25,
  total: 2,
  ...overrides,
});

const item = (overrides: Partial<ModerationItem> = {}): ModerationItem => ({
  kind: 'message_report',
  id: 7,
  site_id: 1,
  created_at: '2026-11-28T10:00:00.000Z',
  status: 'open',
  resolution: null,
  handled_at: null,
  complaint: {
    reference: 'C-AAAA2222',
    name: 'Ada',
    email: 'ada@example.com',
    category: 'chat_report',
    subject: 'Report of message 41',
    message: 'Reason: harassment',
    url: '/chats/9',
  },
  reported: {
    profile_id: 12,
    user_id: 5,
    name: 'Bo',
    age: 30,
    city: 'Utrecht',
    about: '',
    status: 'active',
    is_fictional: false,
    photos: [],
  },
  conversation: {
    id: 9,
    messages: [
      {
        id: 40,
        seq: 1,
        sender_profile_id: 11,
        sender_name: 'Ada',
        sender_is_fictional: false,
        from_reported: false,
        is_reported: false,
        kind: 'text',
        body: 'Hi Bo',
        status: 'sent',
        created_at: '2026-11-28T09:00:00.000Z',
      },
      {
        id: 41,
        seq: 2,
        sender_profile_id: 12,
        sender_name: 'Bo',
        sender_is_fictional: false,
        from_reported: true,
        is_reported: true,
        kind: 'text',
        body: 'You are rude',
        status: 'sent',
        created_at: '2026-11-28T09:01:00.000Z',
      },
    ],
  },
  photo: null,
  sanctions: [],
  reports_about: 1,
  ...overrides,
});

beforeAll(async () => {
  await i18next.loadNamespaces('console');
});

describe('the moderation queue', () => {
  it('lists the items, filters through the address, and moves between rows with the arrow keys', async () => {
    const asked: string[] = [];
    server.use(
      answer('GET /api/console/moderation/queue', ({ request }) => {
        asked.push(new URL(request.url).search);
        return queue();
      }),
    );
    const { user, router } = renderConsole('/console/moderation');
    const table = await screen.findByTestId('queue-table');
    expect(within(table).getByTestId('queue-message_report-7')).toHaveTextContent('Bo');
    expect(within(table).getByTestId('queue-photo-3')).toHaveTextContent(c('moderation.kinds.photo'));
    expect(screen.getByText(c('moderation.total', { count: 2 }))).toBeVisible();

    const links = within(table).getAllByRole('link');
    links[0].focus();
    await user.keyboard('{ArrowDown}');
    expect(links[1]).toHaveFocus();
    await user.keyboard('k');
    expect(links[0]).toHaveFocus();

    await user.selectOptions(screen.getByLabelText(c('moderation.kind')), 'photo');
    await user.type(screen.getByLabelText(c('moderation.olderThan')), '12');
    await user.click(screen.getByRole('button', { name: c('moderation.filter') }));
    expect(router.state.location.search).toBe('?kind=photo&older_than_hours=12');
    await screen.findByTestId('queue-table');
    expect(asked.at(-1)).toContain('kind=photo');
    expect(asked.at(-1)).toContain('older_than_hours=12');
  });
});

describe('an item', () => {
  it('shows the reported message in its conversation and suspends the sender for the chosen length, with a reason', async () => {
    const sent: unknown[] = [];
    let current = item();
    server.use(
      answer('GET /api/console/moderation/items/:kind/:id', () => current),
      answer('POST /api/console/moderation/items/:kind/:id/actions', async ({ request }) => {
        sent.push(await request.json());
        const sanction = {
          id: 99,
          kind: 'suspension' as const,
          reason: 'Insults',
          until: '2026-12-05T10:00:00.000Z',
          created_at: '2026-11-28T12:00:00.000Z',
          staff_name: 'Mo Moderator',
          lifted_at: null,
          active: true,
          complaint_id: 7,
        };
        current = item({ status: 'handled', resolution: 'suspended', sanctions: [sanction] });
        return { ok: true as const, resolution: 'suspended', sanction };
      }),
    );
    const { user } = renderConsole('/console/moderation/items/message_report/7');
    const conversation = await screen.findByTestId('moderation-conversation');
    const reported = within(conversation).getByTestId('message-41');
    expect(reported).toHaveTextContent('You are rude');
    expect(reported).toHaveTextContent(c('moderation.reportedMessage'));
    expect(within(conversation).getByTestId('message-40')).not.toHaveTextContent(c('moderation.reportedSide'));
    expect(screen.getByText(c('moderation.noSanctions'))).toBeVisible();

    await user.click(screen.getByLabelText(c('moderation.actions.suspend')));
    await user.selectOptions(screen.getByLabelText(c('moderation.duration')), '3');
    await user.type(screen.getByLabelText(c('moderation.reason')), 'Insults');
    await user.click(screen.getByRole('button', { name: c('moderation.apply') }));
    expect(await screen.findByTestId('moderation-done')).toHaveTextContent(c('moderation.resolutions.suspended'));
    expect(sent).toEqual([{ action: 'suspend', reason: 'Insults', hours: 72 }]);
    expect(await screen.findByTestId('sanction-99')).toHaveTextContent(c('moderation.sanctionKinds.suspension'));
    expect(screen.getByTestId('item-status')).toHaveTextContent(c('moderation.statuses.handled'));
  });

  it('lifts a sanction and says when a removed message cannot come back', async () => {
    const sanction = {
      id: 98,
      kind: 'ban' as const,
      reason: '',
      until: null,
      created_at: '2026-11-28T12:00:00.000Z',
      staff_name: 'Mo Moderator',
      lifted_at: null,
      active: true,
      complaint_id: 7,
    };
    server.use(
      answer('GET /api/console/moderation/items/:kind/:id', () => item({ sanctions: [sanction] })),
      answer('POST /api/console/moderation/sanctions/:id/undo', () => ({
        ok: true as const,
        sanction: { ...sanction, active: false, lifted_at: '2026-11-28T13:00:00.000Z' },
        not_restored: ['message'],
      })),
    );
    const { user } = renderConsole('/console/moderation/items/message_report/7');
    await user.click(await screen.findByTestId('undo-98'));
    expect(await screen.findByTestId('undo-done')).toHaveTextContent(c('moderation.messageNotRestored'));
  });
});
