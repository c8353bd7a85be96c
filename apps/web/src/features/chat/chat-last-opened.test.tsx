import { type Chat, type ChatsResponse, messagesResponseSchema, okResponseSchema } from '@amora/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { setSessionUser } from '@/shared/session/user';
import { runOnPhone } from '@/testing/browser';
import { contractJson } from '@/testing/contract';
import { chatMessageFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, server } from '@/testing/server';
import { text } from '@/testing/text';
import { LAST_CHAT_STORAGE_KEY, lastChatOpened } from './api/last-chat';

const card = (id: number, name: string) => ({
  id,
  name,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: null,
  is_fictional: false,
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

const chatsOf = (chats: Chat[]): ChatsResponse => ({ chats, num_unread_messages: 0 });

/** messages.php of whichever conversation is asked for, and chat-read.php. */
function answerConversations() {
  server.use(
    http.get('*/api/messages.php', ({ request }) => {
      const id = Number(new URL(request.url).searchParams.get('conversation'));
      return contractJson(messagesResponseSchema, {
        conversation: { id, last_seq: 1 },
        profile: card(100 + id, id === 2 ? 'Mia' : 'Noor'),
        blocked: null,
        messages: [chatMessageFixture(1, { conversation_id: id })],
        has_more_after: false,
        has_more_before: false,
        history_hidden: true,
      });
    }),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
  );
}

const member = userFixture({ id: 7 });
const openedLast = (profile: number, who = member.id) =>
  storage.set(
    LAST_CHAT_STORAGE_KEY,
    JSON.stringify({ member: who, last_chat_opened_profile: profile, last_chat_opened_date: '2026-11-25T10:00:00.000Z' }),
  );

describe('the last chat opened', () => {
  it('is remembered when a chat is opened: its partner and when', async () => {
    server.use(answers.chats(chatsOf([chat(1, 'Noor'), chat(2, 'Mia')])));
    answerConversations();
    await renderApp('/chats/2', { user: member });
    await waitFor(() => expect(lastChatOpened(member.id)?.last_chat_opened_profile).toBe(102));
    expect(Number.isNaN(Date.parse(lastChatOpened(member.id)?.last_chat_opened_date ?? ''))).toBe(false);
  });

  it('opens again on /chats on a desktop', async () => {
    server.use(answers.chats(chatsOf([chat(1, 'Noor'), chat(2, 'Mia')])));
    answerConversations();
    openedLast(102);
    const { router } = await renderApp('/chats', { user: member });
    await waitFor(() => expect(router.state.location.pathname).toBe('/chats/2'));
    // The reopened chat has loaded, so no call of this test is still under way when the next one starts.
    expect(await screen.findByText('message 1')).toBeInTheDocument();
  });

  it('leaves the list on /chats when that chat is gone, blocked, another member kept it, or on a phone', async () => {
    const cases: { chats: Chat[]; profile: number; who?: number; phone?: boolean }[] = [
      { chats: [chat(1, 'Noor')], profile: 102 },
      { chats: [chat(1, 'Noor'), chat(2, 'Mia', { blocked: 'blocked_by_partner' })], profile: 102 },
      { chats: [chat(1, 'Noor'), chat(2, 'Mia', { blocked: 'blocked_partner' })], profile: 102 },
      { chats: [chat(1, 'Noor'), chat(2, 'Mia')], profile: 102, who: 8 },
      { chats: [chat(1, 'Noor'), chat(2, 'Mia')], profile: 102, phone: true },
    ];
    for (const { chats, profile, who, phone } of cases) {
      if (phone) runOnPhone();
      server.use(answers.chats(chatsOf(chats)));
      openedLast(profile, who);
      const { router, unmount } = await renderApp('/chats', { user: member });
      expect(await screen.findAllByTestId('chat-list-item')).toHaveLength(chats.length);
      expect(screen.getByText(text('chat.pick'))).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/chats');
      unmount();
    }
  });
});

describe('the last chat opened, on a shared computer', () => {
  it('is forgotten when the member logs out, so the next person does not see who it was with', async () => {
    server.use(http.get('*/api/logout.php', () => contractJson(okResponseSchema, { ok: true })));
    openedLast(102);
    const { user } = await renderApp('/settings', { user: member });
    server.use(answers.user(null));
    await user.click(await screen.findByTestId('account-menu'));
    expect(lastChatOpened(member.id)?.last_chat_opened_profile).toBe(102);
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(storage.get(LAST_CHAT_STORAGE_KEY)).toBeNull());
  });

  it('is forgotten when the session ends elsewhere (another tab logged out, the session expired)', async () => {
    openedLast(102);
    const { queryClient } = await renderApp('/chats/2', { user: member });
    expect(storage.get(LAST_CHAT_STORAGE_KEY)).not.toBeNull();
    act(() => setSessionUser(queryClient, null));
    expect(storage.get(LAST_CHAT_STORAGE_KEY)).toBeNull();
  });
});
