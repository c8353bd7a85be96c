import type { ConsoleLiveFrame, InboxConversation, InboxList, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from '../console-query-client';
import { consoleRoutes } from '../console-routes';

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

const operator: Staff = {
  id: 4,
  email: 'op@amora.example',
  name: 'Olli Operator',
  role: 'operator',
  language: 'en',
  is_active: true,
  last_login_at: null,
};

function renderConsole(path: string) {
  server.use(answer('GET /api/console/me', () => ({ staff: operator })));
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

const site = { id: 1, name: 'Amora', domain: 'amora.example' };
const sites = [site, { id: 2, name: 'Herzklopfen', domain: 'herzklopfen.example' }];

const list = (): InboxList => ({
  items: [
    {
      conversation_id: 9,
      site,
      member: { id: 11, name: 'Ada', age: 34, city: 'Utrecht', country: 'NL', photo_url: null },
      fictional: { id: 20, name: 'Lotte', photo_url: null },
      waiting: 2,
      last_message_at: '2026-11-28T09:00:00.000Z',
      claim: null,
    },
    {
      conversation_id: 10,
      site,
      member: { id: 12, name: 'Bo', age: 41, city: null, country: 'NL', photo_url: null },
      fictional: { id: 20, name: 'Lotte', photo_url: null },
      waiting: 1,
      last_message_at: '2026-11-28T10:00:00.000Z',
      claim: { staff_id: 7, staff_name: 'Pat', mine: false, expires_at: '2099-01-01T00:00:00.000Z' },
    },
  ],
  page: 1,
  pages: 1,
  total: 2,
  sites,
});

const profile = (overrides: Partial<InboxConversation['member']>): InboxConversation['member'] => ({
  id: 11,
  name: 'Ada',
  age: 34,
  gender: 'woman',
  sexuality: null,
  country: 'NL',
  region: null,
  city: 'Utrecht',
  about: 'Loves sailing',
  interests: ['travel'],
  is_fictional: false,
  photo_url: null,
  ...overrides,
});

const conversation = (claim: InboxConversation['claim']): InboxConversation => ({
  conversation_id: 9,
  site,
  member: profile({}),
  fictional: profile({ id: 20, name: 'Lotte', about: 'Coffee', is_fictional: true }),
  messages: [
    { id: 40, seq: 1, from: 'member', kind: 'text', body: 'Are you there?', status: 'sent', created_at: '2026-11-28T09:00:00.000Z' },
  ],
  more: false,
  unanswered: true,
  unanswerable: null,
  claim,
  max_length: 1000,
});

/** The browser's EventSource, driven by the test: `open()` the stream, then `send()` frames down it. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    act(() => this.onopen?.(new Event('open')));
  }
  send(frame: ConsoleLiveFrame) {
    act(() => this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) })));
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.made = [];
});

beforeAll(async () => {
  await i18next.loadNamespaces(['console', 'common']);
});

describe('the inbox', () => {
  it('lists what waits with who is answering, and moves between rows with the arrow keys', async () => {
    server.use(answer('GET /api/console/inbox', () => list()));
    const { user } = renderConsole('/console/inbox');
    const table = await screen.findByTestId('inbox-table');
    expect(within(table).getByTestId('inbox-9')).toHaveTextContent('Ada, 34');
    expect(within(table).getByTestId('inbox-9')).toHaveTextContent(c('inbox.waiting', { count: 2 }));
    expect(within(table).getByTestId('inbox-10')).toHaveTextContent(c('inbox.claimedBy', { name: 'Pat' }));
    expect(within(table).getAllByText(c('inbox.fictional'))).toHaveLength(2);
    const links = within(table).getAllByRole('link');
    links[0].focus();
    await user.keyboard('{ArrowDown}');
    expect(links[1]).toHaveFocus();
  });

  it('claims a conversation, shows the time left, and answers with Enter (Shift+Enter is a new line)', async () => {
    const sent: unknown[] = [];
    let current = conversation(null);
    server.use(
      answer('GET /api/console/inbox', () => list()),
      answer('GET /api/console/inbox/:conversationId', () => current),
      answer('POST /api/console/inbox/:conversationId/claim', () => {
        const claim = { staff_id: 4, staff_name: 'Olli Operator', mine: true, expires_at: new Date(Date.now() + 300_000).toISOString() };
        current = conversation(claim);
        return { claim };
      }),
      answer('POST /api/console/inbox/:conversationId/messages', async ({ request }) => {
        sent.push(await request.json());
        return { message_id: 41 };
      }),
    );
    const { user, router } = renderConsole('/console/inbox/9');
    expect(await screen.findByText('Are you there?')).toBeVisible();
    expect(screen.getByTestId('inbox-member')).toHaveTextContent('Loves sailing');
    expect(screen.getByTestId('inbox-fictional')).toHaveTextContent(c('inbox.fictional'));
    const reply = screen.getByTestId('inbox-reply');
    expect(reply).toBeDisabled();

    await user.click(screen.getByTestId('inbox-claim-button'));
    expect(await screen.findByTestId('inbox-claim-left')).toHaveTextContent(/4:5\d|5:00/);
    await user.type(reply, 'Hi Ada{Shift>}{Enter}{/Shift}How are you?');
    expect(reply).toHaveValue('Hi Ada\nHow are you?');
    await user.keyboard('{Enter}');
    await screen.findByTestId('inbox-table');
    expect(sent).toEqual([{ text: 'Hi Ada\nHow are you?' }]);
    expect(router.state.location.pathname).toBe('/console/inbox');
  });

  it('picks a site (labelled, every site listed) and asks for its conversations only', async () => {
    const asked: (string | null)[] = [];
    server.use(
      answer('GET /api/console/inbox', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('site'));
        return list();
      }),
    );
    const { user, router } = renderConsole('/console/inbox');
    const picker = await screen.findByRole('combobox', { name: c('inbox.site') });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([c('inbox.allSites'), 'Amora', 'Herzklopfen']);
    await user.selectOptions(picker, 'Herzklopfen');
    expect(router.state.location.search).toBe('?site=2');
    await vi.waitFor(() => expect(asked.at(-1)).toBe('2'));
    expect(picker).toHaveValue('2');
  });

  it('shows a member’s new message without a reload when the live channel says so', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = list();
    let reads = 0;
    server.use(
      answer('GET /api/console/inbox', () => {
        reads++;
        return current;
      }),
    );
    renderConsole('/console/inbox');
    expect(await screen.findByTestId('inbox-9')).toHaveTextContent(c('inbox.waiting', { count: 2 }));
    const [stream] = FakeEventSource.made;
    expect(stream.url).toBe('/api/console/live');
    stream.open();
    expect(screen.queryByTestId('inbox-live-off')).toBeNull();
    const before = reads;
    current = { ...current, items: current.items.map((item) => (item.conversation_id === 9 ? { ...item, waiting: 3 } : item)) };
    stream.send({ type: 'inbox', conversation_id: 9, site_id: 1 });
    expect(await screen.findByText(c('inbox.waiting', { count: 3 }))).toBeVisible();
    expect(reads).toBe(before + 1);
  });

  it('says live updates are off while the channel is down, and signs in again when the session ended', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let me: Staff | null = operator;
    server.use(
      answer('GET /api/console/inbox', () => list()),
      answer('GET /api/console/me', () => ({ staff: me })),
    );
    const router = createMemoryRouter(consoleRoutes(), { initialEntries: ['/console/inbox'] });
    render(
      <QueryClientProvider client={createConsoleQueryClient({ retry: false })}>
        <Suspense fallback={null}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>,
    );
    await screen.findByTestId('inbox-table');
    const [stream] = FakeEventSource.made;
    stream.readyState = FakeEventSource.CONNECTING;
    act(() => stream.onerror?.(new Event('error')));
    expect(await screen.findByTestId('inbox-live-off')).toHaveTextContent(c('inbox.liveOff'));
    stream.open();
    expect(screen.queryByTestId('inbox-live-off')).toBeNull();
    me = null;
    stream.send({ type: 'ended' });
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
    expect(await screen.findByLabelText(c('signIn.email'))).toBeVisible();
  });

  it('says why a member cannot be answered, and offers no claim', async () => {
    server.use(answer('GET /api/console/inbox/:conversationId', () => ({ ...conversation(null), unanswerable: 'blocked' as const })));
    renderConsole('/console/inbox/9');
    expect(await screen.findByTestId('inbox-unanswerable')).toHaveTextContent(c('inbox.errors.blocked'));
    expect(screen.queryByTestId('inbox-claim-button')).toBeNull();
    expect(screen.getByTestId('inbox-reply')).toBeDisabled();
  });

  it('says who holds a conversation another operator claimed', async () => {
    server.use(
      answer('GET /api/console/inbox/:conversationId', () =>
        conversation({ staff_id: 7, staff_name: 'Pat', mine: false, expires_at: new Date(Date.now() + 200_000).toISOString() }),
      ),
    );
    renderConsole('/console/inbox/9');
    expect(await screen.findByText(c('inbox.claimedBy', { name: 'Pat' }))).toBeVisible();
    expect(screen.queryByTestId('inbox-claim-button')).toBeNull();
    expect(screen.getByTestId('inbox-reply')).toBeDisabled();
  });
});
