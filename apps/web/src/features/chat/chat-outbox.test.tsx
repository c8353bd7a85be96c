import {
  type Chat,
  chatsResponseSchema,
  errorSchema,
  type Message,
  messagesResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractJson } from '@/testing/contract';
import { chatMessageFixture as message, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { useFakeClock } from '@/testing/timers';
import { SERVER_ERRORS_MAX } from './api/outbox';

const me = userFixture();
const OUTBOX_KEY = `amora.chat.outbox.${me.id}`;
const CLIENT_ID = '3f7c2a7e-9b1d-4c55-8a3e-2f6d1c0b9e11';

const noor = { id: 101, name: 'Noor', age: 30, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

const chat: Chat = {
  conversation: { id: 1, last_seq: 1, updated_at: '2026-11-25T10:00:00.000Z' },
  profile: noor,
  num_unread_messages: 0,
  last_message: { seq: 1, kind: 'text', body: 'Hello', from_me: false, created_at: '2026-11-25T10:00:00.000Z' },
  blocked: null,
};

/**
 * Conversation 1 with Noor, whose messages.php answers what the server has stored; POST messages.php answers as
 * `answer` says, and stores a message once per client id (as the server does).
 */
function answerConversation(answer: (clientId: string) => 'ok' | 'network' | 'server-error' | 'blocked' = () => 'ok') {
  const stored: Message[] = [message(1)];
  const posts: string[] = [];
  server.use(
    http.get('*/api/chats.php', () => contractJson(chatsResponseSchema, { chats: [chat], num_unread_messages: 0 })),
    http.get('*/api/messages.php', ({ request }) => {
      const after = Number(new URL(request.url).searchParams.get('after') ?? 0);
      return contractJson(messagesResponseSchema, {
        conversation: { id: 1, last_seq: stored.length },
        profile: noor,
        blocked: null,
        messages: stored.filter((m) => m.seq > after),
        has_more_after: false,
        has_more_before: false,
        history_hidden: false,
      });
    }),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    http.post('*/api/messages.php', async ({ request }) => {
      const input = (await request.json()) as { body: string; client_id: string; conversation: number };
      posts.push(input.client_id);
      const outcome = answer(input.client_id);
      if (outcome === 'network') return HttpResponse.error();
      if (outcome === 'server-error') return HttpResponse.json({ error: 'internal_error', message: 'Oops' }, { status: 500 });
      if (outcome === 'blocked') {
        return HttpResponse.json(
          errorSchema.parse({
            error: 'blocked_by_partner',
            message: 'You are blocked by Noor',
            message_key: 'chat.errors.blockedByPartner',
            name: 'Noor',
          }),
          { status: 403 },
        );
      }
      let sent = stored.find((m) => m.client_id === input.client_id);
      if (!sent) {
        sent = message(stored.length + 1, { from_me: true, body: input.body, client_id: input.client_id, price: 10, sender_profile_id: 1 });
        stored.push(sent);
      }
      return contractJson(sendMessageResponseSchema, { message: sent, credits: 10 });
    }),
  );
  return { stored, posts };
}

const outbox = () => JSON.parse(window.localStorage.getItem(OUTBOX_KEY) ?? '[]') as { clientId: string; body: string; status: string }[];

/** navigator.onLine as the browser would say it (and the event it fires when it comes back). */
function setOnline(isOnline: boolean) {
  vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(isOnline);
  if (isOnline) window.dispatchEvent(new Event('online'));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sending offline first', () => {
  it('a message written offline is kept with its client id, shown as waiting, and sent once when the browser is back online', async () => {
    const { stored, posts } = answerConversation();
    setOnline(false);
    const { user } = await renderApp('/chats/1', { user: me });
    await user.type(await screen.findByRole('textbox', { name: text('chat.placeholder') }), 'Are you there?');
    await user.click(screen.getByTestId('chat-send'));

    const waiting = await screen.findByTestId('chat-pending');
    expect(within(waiting).getByTestId('chat-waiting')).toHaveTextContent(text('chat.offline'));
    expect(outbox()).toEqual([expect.objectContaining({ body: 'Are you there?', to: { conversation: 1 } })]);
    const clientId = outbox()[0].clientId;
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts).toEqual([]);

    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).toBeNull());
    expect(posts).toEqual([clientId]);
    expect(stored.filter((m) => m.client_id === clientId)).toHaveLength(1);
    const sent = screen.getAllByTestId('chat-message').at(-1) as HTMLElement;
    expect(within(sent).getByText('Are you there?')).toBeVisible();
    expect(outbox()).toEqual([]);
  });

  it('after a reload, what an earlier page left waiting is shown and sent once with its own client id', async () => {
    window.localStorage.setItem(
      OUTBOX_KEY,
      JSON.stringify([{ clientId: CLIENT_ID, body: 'Written on the train', to: { conversation: 1 }, createdAt: 0, status: 'sending' }]),
    );
    const { stored, posts } = answerConversation();
    await renderApp('/chats/1', { user: me });
    expect(await screen.findByText('Written on the train')).toBeVisible();
    await waitFor(() => expect(outbox()).toEqual([]));
    expect(posts).toEqual([CLIENT_ID]);
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).toBeNull());
    expect(stored.map((m) => m.client_id)).toEqual([null, CLIENT_ID]);
    expect(screen.getAllByText('Written on the train')).toHaveLength(1);
  });

  it('while the server cannot be reached the queue waits and tries again by itself, 5 s doubling; the retry stores once', async () => {
    const clock = useFakeClock();
    let isDown = true;
    const { stored, posts } = answerConversation(() => (isDown ? 'network' : 'ok'));
    window.localStorage.setItem(
      OUTBOX_KEY,
      JSON.stringify([{ clientId: CLIENT_ID, body: 'Still there?', to: { conversation: 1 }, createdAt: 0, status: 'waiting' }]),
    );
    await renderApp('/chats/1', { user: me, advanceTimers: vi.advanceTimersByTime });
    await clock.at(1_000);
    expect(posts).toHaveLength(1);
    expect(screen.getByTestId('chat-waiting')).toBeInTheDocument();
    await clock.at(6_000);
    expect(posts).toHaveLength(2);
    // 10 s after the second try, not before.
    await clock.at(15_000);
    expect(posts).toHaveLength(2);
    isDown = false;
    await clock.at(17_000);
    expect(posts).toEqual([CLIENT_ID, CLIENT_ID, CLIENT_ID]);
    expect(stored.filter((m) => m.client_id === CLIENT_ID)).toHaveLength(1);
    expect(outbox()).toEqual([]);
    expect(screen.queryByTestId('chat-pending')).toBeNull();
  });

  it('a send the server refuses leaves the queue with its reason and is never sent again by itself; Try again uses the same id', async () => {
    let isBlocked = true;
    const { posts } = answerConversation(() => (isBlocked ? 'blocked' : 'ok'));
    const { user } = await renderApp('/chats/1', { user: me });
    await user.type(await screen.findByRole('textbox', { name: text('chat.placeholder') }), 'Hello?');
    await user.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(screen.getByTestId('chat-pending')).toHaveTextContent('You are blocked by Noor'));
    expect(outbox()).toEqual([expect.objectContaining({ body: 'Hello?', status: 'failed' })]);

    // Online again, and longer than the longest wait between tries: nothing goes by itself.
    const clock = useFakeClock();
    setOnline(true);
    await clock.at(65_000);
    expect(posts).toHaveLength(1);

    isBlocked = false;
    fireEvent.click(within(screen.getByTestId('chat-pending')).getByTestId('chat-retry'));
    await clock.at(66_000);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toBe(posts[0]);
    expect(screen.queryByTestId('chat-pending')).toBeNull();
    expect(outbox()).toEqual([]);
  });

  it(`after ${SERVER_ERRORS_MAX} server errors in a row a message leaves the queue as not sent`, async () => {
    const clock = useFakeClock();
    const { posts } = answerConversation(() => 'server-error');
    window.localStorage.setItem(
      OUTBOX_KEY,
      JSON.stringify([{ clientId: CLIENT_ID, body: 'Hi', to: { conversation: 1 }, createdAt: 0, status: 'waiting' }]),
    );
    await renderApp('/chats/1', { user: me, advanceTimers: vi.advanceTimersByTime });
    await clock.at(10 * 60_000);
    expect(posts).toHaveLength(SERVER_ERRORS_MAX);
    expect(outbox()).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(within(screen.getByTestId('chat-pending')).getByTestId('chat-retry')).toBeInTheDocument();
  });

  it("another member's outbox is not sent or shown", async () => {
    window.localStorage.setItem(
      `amora.chat.outbox.${me.id + 1}`,
      JSON.stringify([{ clientId: CLIENT_ID, body: 'Not mine', to: { conversation: 1 }, createdAt: 0, status: 'waiting' }]),
    );
    const { posts } = answerConversation();
    await renderApp('/chats/1', { user: me });
    expect(await screen.findByText('message 1')).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Not mine')).toBeNull();
    expect(posts).toEqual([]);
  });
});
