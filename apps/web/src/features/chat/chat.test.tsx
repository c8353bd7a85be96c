import {
  type Chat,
  type ChatsResponse,
  chatsResponseSchema,
  errorSchema,
  LIVE_CLOSE,
  LIVE_PATH,
  type Message,
  memberResponseSchema,
  messagesResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { formatChatDay } from '@/lib/format-time';
import { contractJson } from '@/testing/contract';
import { chatMessageFixture as message, settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, live, server } from '@/testing/server';
import { text } from '@/testing/text';
import { LIVE_NO_RECONNECT, LIVE_SOCKET_PATH } from './api/live-socket';

const card = (id: number, name: string, isFictional = false) => ({
  id,
  name,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: null,
  is_fictional: isFictional,
  is_premium: false,
});

function chat(id: number, name: string, overrides: Partial<Chat> = {}): Chat {
  return {
    conversation: { id, last_seq: 1, updated_at: '2026-11-25T10:00:00.000Z' },
    profile: card(100 + id, name),
    num_unread_messages: 0,
    last_message: { seq: 1, kind: 'text', body: `Hello from ${name}`, from_me: false, created_at: '2026-11-25T10:00:00.000Z' },
    blocked: null,
    ...overrides,
  };
}

const chatsOf = (chats: Chat[]): ChatsResponse => ({ chats, num_unread_messages: chats.reduce((s, c) => s + c.num_unread_messages, 0) });

/** messages.php for conversation 1 with Noor, and chat-read.php. */
function answerConversation(messages: Message[] = [message(1)]) {
  server.use(
    http.get('*/api/messages.php', () =>
      contractJson(messagesResponseSchema, {
        conversation: { id: 1, last_seq: messages.length },
        profile: card(101, 'Noor'),
        blocked: null,
        messages,
        has_more_after: false,
        has_more_before: false,
        history_hidden: true,
      }),
    ),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
  );
}

const sentAnswer = (clientId: string, body: string) =>
  contractJson(sendMessageResponseSchema, {
    message: message(2, { from_me: true, body, client_id: clientId, price: 1, sender_profile_id: 1 }),
    credits: 9,
  });

describe('chats', () => {
  it('the list shows each chat with its last message, unread count and the fictional warning, and opens none on /chats', async () => {
    const fictional = chat(2, 'Mia', { profile: card(102, 'Mia', true), num_unread_messages: 3 });
    const gift = chat(3, 'Ada', {
      last_message: { seq: 2, kind: 'gift', gift: 'coffee', body: '', from_me: true, created_at: '2026-11-25T10:00:00.000Z' },
    });
    server.use(answers.chats(chatsOf([chat(1, 'Noor'), fictional, gift])));
    await renderApp('/chats', { user: userFixture() });
    const items = await screen.findAllByTestId('chat-list-item');
    expect(items).toHaveLength(3);
    expect(within(items[2]).getByText(text('chat.fromMe', { text: text('chat.gifts.coffee') }))).toBeVisible();
    expect(within(items[0]).getByText('Hello from Noor')).toBeVisible();
    expect(within(items[0]).queryByTestId('chat-unread')).toBeNull();
    expect(within(items[1]).getByTestId('chat-unread')).toHaveTextContent('3');
    expect(within(items[1]).getByTestId('chat-fictional-icon')).toBeInTheDocument();
    expect(within(items[1]).getByText(settingsFixture().fictional_warning)).toBeInTheDocument();
    expect(within(items[1]).getByRole('link')).toHaveAttribute('href', '/chats/2');
    expect(screen.getByText(text('chat.pick'))).toBeInTheDocument();
  });

  it('deleting a chat removes it at once; when the server refuses, the alert is shown and the list comes back', async () => {
    let isFailing = false;
    let chats = chatsOf([chat(1, 'Noor'), chat(2, 'Mia')]);
    server.use(
      http.get('*/api/chats.php', () => contractJson(chatsResponseSchema, chats)),
      http.delete('*/api/chat.php', async ({ request }) => {
        const { conversation } = (await request.json()) as { conversation: number };
        if (isFailing) return HttpResponse.json({ error: 'internal_error', message: 'Oops' }, { status: 500 });
        chats = chatsOf(chats.chats.filter((c) => c.conversation.id !== conversation));
        return contractJson(okResponseSchema, { ok: true });
      }),
    );
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const { user } = await renderApp('/chats', { user: userFixture() });
    const [noor] = await screen.findAllByTestId('chat-list-item');
    await user.click(within(noor).getByTestId('chat-delete'));
    await user.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: text('chat.delete') }));
    await waitFor(() => expect(screen.getAllByTestId('chat-list-item')).toHaveLength(1));
    expect(screen.queryByText('Noor')).toBeNull();

    isFailing = true;
    const [mia] = screen.getAllByTestId('chat-list-item');
    await user.click(within(mia).getByTestId('chat-delete'));
    await user.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: text('chat.delete') }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith(text('chat.deleteFailed')));
    expect(await screen.findByText('Mia')).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('opening a chat marks it read; a send shows as pending until the server acknowledges it, then as sent', async () => {
    answerConversation();
    let release: () => void = () => {};
    const reads: number[] = [];
    server.use(
      http.get('*/api/chats.php', () =>
        contractJson(chatsResponseSchema, chatsOf([chat(1, 'Noor', { num_unread_messages: reads.length > 0 ? 0 : 2 })])),
      ),
      http.post('*/api/chat-read.php', async ({ request }) => {
        reads.push(((await request.json()) as { conversation: number }).conversation);
        return contractJson(okResponseSchema, { ok: true });
      }),
      http.post('*/api/messages.php', async ({ request }) => {
        const input = (await request.json()) as { body: string; client_id: string; conversation: number };
        expect(input.conversation).toBe(1);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return sentAnswer(input.client_id, input.body);
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    expect(await screen.findByText('message 1')).toBeVisible();
    expect(screen.getByTestId('chat-history-hidden')).toHaveTextContent(text('chat.historyHidden'));
    await waitFor(() => expect(reads).toEqual([1]));
    await waitFor(() => expect(screen.queryByTestId('chat-unread')).toBeNull());

    await user.type(screen.getByRole('textbox', { name: text('chat.placeholder') }), 'Hi Noor');
    await user.click(screen.getByTestId('chat-send'));
    const pending = await screen.findByTestId('chat-pending');
    expect(within(pending).getByText(text('chat.pending'))).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).toBeNull());
    const sent = screen.getAllByTestId('chat-message').at(-1) as HTMLElement;
    expect(within(sent).getByText('Hi Noor')).toBeVisible();
    expect(within(sent).getByTestId('chat-message-sent')).toHaveTextContent(text('chat.sent'));
  });

  it('a send that failed on the network is sent again with the same client id', async () => {
    answerConversation();
    const ids: string[] = [];
    server.use(
      answers.chats(chatsOf([chat(1, 'Noor')])),
      http.post('*/api/messages.php', async ({ request }) => {
        const input = (await request.json()) as { body: string; client_id: string };
        ids.push(input.client_id);
        if (ids.length === 1) return HttpResponse.error();
        return sentAnswer(input.client_id, input.body);
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    await user.type(await screen.findByRole('textbox', { name: text('chat.placeholder') }), 'Are you there?');
    await user.click(screen.getByTestId('chat-send'));
    const failed = await screen.findByText(text('chat.offline'));
    expect(failed).toBeInTheDocument();
    await user.click(screen.getByTestId('chat-retry'));
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).toBeNull());
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('without enough credits the send says so, with the balance and the price, and offers to buy credits', async () => {
    answerConversation();
    server.use(
      answers.chats(chatsOf([chat(1, 'Noor')])),
      http.post('*/api/messages.php', () =>
        HttpResponse.json(
          errorSchema.parse({
            error: 'not_enough_credits',
            message: 'Not enough credits to send this message',
            message_key: 'chat.errors.notEnoughCredits',
            credits: 3,
            price: 10,
          }),
          { status: 402 },
        ),
      ),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    await user.type(await screen.findByRole('textbox', { name: text('chat.placeholder') }), 'Hello');
    await user.click(screen.getByTestId('chat-send'));
    const dialog = await screen.findByTestId('not-enough-credits');
    expect(within(dialog).getByRole('heading', { name: 'Not enough credits to send this message' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('not-enough-credits-text')).toHaveTextContent(
      text('chat.creditsLeft', { count: 3, price: text('chat.costCredits', { count: 10 }) }),
    );
    expect(within(dialog).getByRole('link', { name: text('chat.buyCredits') })).toHaveAttribute('href', '/credits');
    expect(within(screen.getByTestId('chat-pending')).getByText(text('chat.failed'))).toBeInTheDocument();
  });

  it('says before a send when the credits no longer pay for a message, with the way to buy more', async () => {
    answerConversation();
    server.use(answers.chats(chatsOf([chat(1, 'Noor')])), answers.user(userFixture({ credits: 0 })));
    const { unmount } = await renderApp('/chats/1', { user: userFixture({ credits: 0 }) });
    await screen.findByRole('textbox', { name: text('chat.placeholder') });
    const line = await screen.findByTestId('chat-low-credits');
    expect(line).toHaveTextContent(text('chat.creditsLeft', { count: 0, price: text('chat.costCredits', { count: 1 }) }));
    expect(within(line).getByRole('link', { name: text('chat.buyCredits') })).toHaveAttribute('href', '/credits');
    unmount();
    // Enough for a message: no line.
    server.use(answers.user(userFixture({ credits: 1 })));
    await renderApp('/chats/1', { user: userFixture({ credits: 1 }) });
    await screen.findByRole('textbox', { name: text('chat.placeholder') });
    expect(screen.queryByTestId('chat-low-credits')).toBeNull();
  });

  it('the composer counts up to message_length, says what a message costs, and will not send past the limit', async () => {
    answerConversation();
    server.use(answers.settings(settingsFixture({ message_length: 10, message_credits: 2 })), answers.chats(chatsOf([chat(1, 'Noor')])));
    const { user } = await renderApp('/chats/1', {
      user: userFixture(),
      settings: settingsFixture({ message_length: 10, message_credits: 2 }),
    });
    const box = await screen.findByRole('textbox', { name: text('chat.placeholder') });
    expect(screen.getByTestId('chat-price')).toHaveTextContent(text('chat.price', { count: 2 }));
    await user.type(box, 'Hello');
    expect(screen.getByTestId('chat-counter')).toHaveTextContent(`5/10${text('chat.charsLeft', { count: 5 })}`);
    await user.type(box, ' there, you');
    expect(screen.getByTestId('chat-counter')).toHaveTextContent(text('chat.tooLongBy', { count: 6 }));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('chat-send')).toBeDisabled();
  });

  it('a free member over the two conversations limit is told so, and that answering still works', async () => {
    answerConversation();
    server.use(
      answers.chats(chatsOf([chat(1, 'Noor')])),
      http.post('*/api/messages.php', () =>
        HttpResponse.json(
          errorSchema.parse({
            error: 'conversation_limit',
            message: 'Free members can start at most 2 conversations',
            message_key: 'chat.errors.conversationLimit',
          }),
          { status: 403 },
        ),
      ),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    await user.type(await screen.findByRole('textbox', { name: text('chat.placeholder') }), 'Hello');
    await user.click(screen.getByTestId('chat-send'));
    const limit = await screen.findByTestId('chat-limit');
    expect(limit).toHaveTextContent(text('chat.errors.conversationLimit'));
    expect(within(limit).getByRole('link', { name: text('chat.buyCredits') })).toHaveAttribute('href', '/credits');
    expect(within(screen.getByTestId('chat-pending')).getByText(text('chat.failed'))).toBeInTheDocument();
  });

  it('a blocked chat says why and cannot be written in', async () => {
    server.use(
      answers.chats(chatsOf([chat(1, 'Noor', { blocked: 'blocked_by_partner' })])),
      http.get('*/api/messages.php', () =>
        contractJson(messagesResponseSchema, {
          conversation: { id: 1, last_seq: 1 },
          profile: card(101, 'Noor'),
          blocked: 'blocked_by_partner',
          messages: [message(1)],
          has_more_after: false,
          has_more_before: false,
          history_hidden: false,
        }),
      ),
      http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    );
    await renderApp('/chats/1', { user: userFixture() });
    expect(await screen.findByTestId('chat-blocked')).toHaveTextContent('You are blocked by Noor');
    expect(screen.getByRole('textbox', { name: text('chat.placeholder') })).toBeDisabled();
  });

  it('the Messages item counts unread messages, 99+ above 99', async () => {
    server.use(answers.chats(chatsOf([chat(1, 'Noor', { num_unread_messages: 120 })])));
    await renderApp('/likes', { user: userFixture() });
    const item = await screen.findByTestId('nav-messages');
    expect(item).toHaveAttribute('href', '/chats');
    expect(await within(item).findByTestId('messages-badge')).toHaveTextContent('99+');
    await waitFor(() => expect(document.title).toMatch(/^\(120\) /));
  });

  it("the profile's Message button opens a new chat with that member, which the first send starts", async () => {
    const posts: unknown[] = [];
    server.use(
      http.get('*/api/member.php', () =>
        contractJson(memberResponseSchema, {
          profile: {
            id: 5,
            name: 'Noa',
            age: 30,
            city: 'Utrecht',
            country: 'NL',
            is_fictional: false,
            is_premium: false,
            region: null,
            about: '',
            attributes: {},
            interests: [],
            photos: [],
            hidden_photo_count: 0,
            is_blocked_by_me: false,
            is_own: false,
          },
          related: [],
        }),
      ),
      http.post('*/api/messages.php', async ({ request }) => {
        const input = (await request.json()) as { body: string; client_id: string };
        posts.push(input);
        return contractJson(sendMessageResponseSchema, {
          message: message(1, { conversation_id: 7, from_me: true, body: input.body, client_id: input.client_id, price: 1 }),
          credits: 9,
        });
      }),
      http.get('*/api/messages.php', ({ request }) => {
        expect(new URL(request.url).searchParams.get('conversation')).toBe('7');
        return contractJson(messagesResponseSchema, {
          conversation: { id: 7, last_seq: 1 },
          profile: card(5, 'Noa'),
          blocked: null,
          messages: [message(1, { conversation_id: 7, from_me: true, body: 'Hi Noa', price: 1 })],
          has_more_after: false,
          has_more_before: false,
          history_hidden: false,
        });
      }),
      http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    );
    const { user, router } = await renderApp('/members/5', { user: userFixture() });
    await user.click(await screen.findByTestId('message-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/members/5/chat'));
    expect(await screen.findByText(text('chat.sayHello', { name: 'Noa' }))).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: text('chat.placeholder') }), 'Hi Noa');
    await user.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chats/7'));
    expect(posts).toEqual([expect.objectContaining({ profile: 5, body: 'Hi Noa' })]);
    expect(await screen.findByText('Hi Noa')).toBeVisible();
  });

  it('an unconfirmed member is told before the first message of a new chat that others can answer once they confirm', async () => {
    const posts: unknown[] = [];
    server.use(
      http.get('*/api/member.php', () =>
        contractJson(memberResponseSchema, {
          profile: {
            id: 5,
            name: 'Noa',
            age: 30,
            city: 'Utrecht',
            country: 'NL',
            is_fictional: false,
            is_premium: false,
            region: null,
            about: '',
            attributes: {},
            interests: [],
            photos: [],
            hidden_photo_count: 0,
            is_blocked_by_me: false,
            is_own: false,
          },
          related: [],
        }),
      ),
      http.post('*/api/messages.php', async ({ request }) => {
        posts.push(await request.json());
        return HttpResponse.json({ error: 'internal_error', message: 'not expected' }, { status: 500 });
      }),
    );
    await renderApp('/members/5/chat', { user: userFixture({ status: 'not_confirmed' }) });
    expect(await screen.findByTestId('chat-blocked')).toHaveTextContent(text('chat.errors.ownUnconfirmed'));
    // Writing stays possible (the message reaches them), and nothing was sent or paid to say so.
    expect(screen.getByRole('textbox', { name: text('chat.placeholder') })).toBeEnabled();
    expect(posts).toEqual([]);
  });

  it('a confirmed member sees no such note in a new chat', async () => {
    server.use(
      http.get('*/api/member.php', () =>
        contractJson(memberResponseSchema, {
          profile: {
            id: 5,
            name: 'Noa',
            age: 30,
            city: 'Utrecht',
            country: 'NL',
            is_fictional: false,
            is_premium: false,
            region: null,
            about: '',
            attributes: {},
            interests: [],
            photos: [],
            hidden_photo_count: 0,
            is_blocked_by_me: false,
            is_own: false,
          },
          related: [],
        }),
      ),
    );
    await renderApp('/members/5/chat', { user: userFixture() });
    expect(await screen.findByText(text('chat.sayHello', { name: 'Noa' }))).toBeVisible();
    expect(screen.queryByTestId('chat-blocked')).toBeNull();
  });

  it('/members/{id}/chat goes to the chat I already have with that member', async () => {
    answerConversation();
    server.use(answers.chats(chatsOf([chat(1, 'Noor')])));
    const { router } = await renderApp('/members/101/chat', { user: userFixture() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/chats/1'));
    expect(await screen.findByText('message 1')).toBeVisible();
  });

  it('a message frame on the live channel fetches the messages after the last sequence at once, each shown once', async () => {
    const afters: (string | null)[] = [];
    let sendFrame: (frame: object) => void = () => {};
    server.use(
      answers.chats(chatsOf([chat(1, 'Noor')])),
      live.addEventListener('connection', ({ client }) => {
        sendFrame = (frame) => client.send(JSON.stringify(frame));
        sendFrame({ type: 'ready' });
      }),
      http.get('*/api/messages.php', ({ request }) => {
        const after = new URL(request.url).searchParams.get('after');
        afters.push(after);
        const messages = after === null ? [message(1)] : [message(2), message(3)].filter((m) => m.seq > Number(after));
        return contractJson(messagesResponseSchema, {
          conversation: { id: 1, last_seq: 3 },
          profile: card(101, 'Noor'),
          blocked: null,
          messages,
          has_more_after: false,
          has_more_before: false,
          history_hidden: false,
        });
      }),
      http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    );
    await renderApp('/chats/1', { user: userFixture() });
    expect(await screen.findByText('message 1')).toBeVisible();
    await waitFor(() => expect(afters).toContain('1'));
    expect(await screen.findByText('message 3')).toBeVisible();
    sendFrame({ type: 'message', conversation: 1, seq: 3 });
    sendFrame({ type: 'message', conversation: 2, seq: 9 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByTestId('chat-message').map((m) => m.querySelector('.chat-bubble')?.textContent)).toEqual([
      'message 1',
      'message 2',
      'message 3',
    ]);
  });

  it('a day separator stands above the first message of each day: an older date, Yesterday, Today', async () => {
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const old = ago(12 * 86_400_000);
    answerConversation([
      message(1, { created_at: old }),
      message(2, { created_at: old }),
      message(3, { created_at: ago(86_400_000 + 60_000), from_me: true }),
      message(4, { created_at: ago(60_000) }),
      message(5, { created_at: ago(30_000), from_me: true }),
    ]);
    server.use(answers.chats(chatsOf([chat(1, 'Noor')])));
    await renderApp('/chats/1', { user: userFixture() });
    await screen.findByText('message 5');
    const items = [...(screen.getAllByTestId('chat-message')[0].parentElement as HTMLElement).children];
    const days = items.flatMap((li) => (li.getAttribute('data-testid') === 'chat-day' ? [li.textContent] : []));
    expect(days).toEqual([formatChatDay(old, 'en'), 'Yesterday', 'Today']);
    expect(
      items.map((li) => (li.getAttribute('data-testid') === 'chat-day' ? 'day' : li.querySelector('.chat-bubble')?.textContent)),
    ).toEqual(['day', 'message 1', 'message 2', 'day', 'message 3', 'day', 'message 4', 'message 5']);
  });

  it("the web client's live path and no-reconnect codes are the contract's", () => {
    expect(LIVE_SOCKET_PATH).toBe(LIVE_PATH);
    expect([...LIVE_NO_RECONNECT].sort()).toEqual([LIVE_CLOSE.unauthenticated, LIVE_CLOSE.forbiddenOrigin, LIVE_CLOSE.replaced].sort());
  });
});
