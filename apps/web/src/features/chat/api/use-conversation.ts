import type { Message, MessagesResponse, SendMessageResponse } from '@amora/contracts';
import { POLL } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { userQueryKey, useUser } from '@/shared/session/user';
import { chatsQueryKey, fetchMessages, postChatRead, updateCachedChat } from './chats';
import { onLiveFrame, useLiveConnected } from './live-channel';
import { onLiveSignal } from './live-signals';
import {
  discardMessage,
  enqueueMessage,
  type OutboxItem,
  onOutboxFailed,
  onOutboxSent,
  outboxError,
  retryMessage,
  useOutbox,
} from './outbox';

/**
 * A message typed here that the server has not acknowledged yet: being sent, waiting for the connection (kept in
 * the outbox across reloads), or refused (with the refusal).
 */
export interface PendingMessage {
  clientId: string;
  body: string;
  status: 'pending' | 'waiting' | 'failed';
  error?: unknown;
}

/** Where a send goes: a conversation of mine, or a member I have no conversation with yet. */
export type ChatTarget = { conversation: number } | { profile: number };

/** Merges messages by sequence: one per seq (a message seen twice is kept once), oldest first. */
function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return current;
  const bySeq = new Map(current.map((m) => [m.seq, m]));
  for (const message of incoming) bySeq.set(message.seq, message);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Whether a message of the outbox belongs to this chat (sent to its conversation, or to its partner's profile). */
function isFor(item: OutboxItem, conversationId: number | null, partnerId: number | null): boolean {
  if ('conversation' in item.to) return item.to.conversation === conversationId;
  return item.to.profile === partnerId;
}

/**
 * One open chat: its newest page, then whatever comes after its last sequence (on a live frame, or by polling
 * from 5 s after opening every 60 s, 300 s while the live channel is open), de-duplicated by sequence; older
 * pages on demand; and sending, offline first, through the outbox (outbox.ts): each send has a client id
 * (crypto.randomUUID()), is kept in storage and shows as pending until acknowledged, and is sent again with the
 * same id (so never stored or charged twice) when the connection returns, after a reload too.
 */
export function useConversation(
  target: ChatTarget,
  { onSent, onFailed }: { onSent?: (answer: SendMessageResponse) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  const conversationId = 'conversation' in target ? target.conversation : null;
  const profileId = 'profile' in target ? target.profile : null;
  const [head, setHead] = useState<Omit<MessagesResponse, 'messages' | 'has_more_after'> | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
  const user = useUser();
  const userId = user?.id ?? null;
  const outbox = useOutbox(userId);
  const lastSeq = useRef(0);
  const isFetching = useRef(false);
  /** A frame (a reconnect's ready, say) came while the first page was still loading: look again once it is in. */
  const missedFrame = useRef(false);
  const [catchUps, setCatchUps] = useState(0);
  const isLive = useLiveConnected();

  const accept = useCallback((incoming: Message[]) => {
    if (incoming.length === 0) return;
    lastSeq.current = Math.max(lastSeq.current, ...incoming.map((m) => m.seq));
    setMessages((current) => mergeMessages(current, incoming));
  }, []);

  /** Opening a chat (and reading what arrives in it) sets its unread count to 0 (spec §4). */
  const markRead = useCallback(() => {
    if (conversationId === null) return;
    updateCachedChat(queryClient, conversationId, (chat) => ({ ...chat, num_unread_messages: 0 }));
    postChatRead(conversationId)
      .then(() => queryClient.invalidateQueries({ queryKey: chatsQueryKey }))
      .catch(() => {});
  }, [conversationId, queryClient]);

  const load = useCallback(async () => {
    if (conversationId === null) return;
    setLoadError(null);
    try {
      const answer = await fetchMessages({ conversation: String(conversationId) });
      const { messages: page, has_more_after: _, ...rest } = answer;
      setHead(rest);
      accept(page);
      markRead();
      if (missedFrame.current) {
        missedFrame.current = false;
        setCatchUps((n) => n + 1);
      }
    } catch (error) {
      setLoadError(error);
    }
  }, [conversationId, accept, markRead]);

  /** Everything after the last sequence I hold; again while the server says more follow (a gap is refetched). */
  const fetchNew = useCallback(async () => {
    if (conversationId === null || isFetching.current || lastSeq.current === 0) return;
    isFetching.current = true;
    try {
      let hasMore = true;
      let found = false;
      while (hasMore) {
        const answer = await fetchMessages({ conversation: String(conversationId), after: String(lastSeq.current) });
        setHead((current) => (current ? { ...current, blocked: answer.blocked, profile: answer.profile } : current));
        accept(answer.messages);
        found ||= answer.messages.some((m) => !m.from_me);
        hasMore = answer.has_more_after && answer.messages.length > 0;
      }
      if (found) markRead();
    } catch {
      // The next poll or frame tries again.
    } finally {
      isFetching.current = false;
    }
  }, [conversationId, accept, markRead]);

  const loadOlder = useCallback(async () => {
    if (conversationId === null || messages.length === 0) return;
    const answer = await fetchMessages({ conversation: String(conversationId), before: String(messages[0].seq) });
    setHead((current) =>
      current ? { ...current, has_more_before: answer.has_more_before, history_hidden: answer.history_hidden } : current,
    );
    accept(answer.messages);
  }, [conversationId, messages, accept]);

  useEffect(() => {
    lastSeq.current = 0;
    missedFrame.current = false;
    setMessages([]);
    setHead(null);
    void load();
  }, [load]);

  useEffect(() => {
    if (conversationId === null) return;
    const interval = isLive ? POLL.pushIntervalMs : POLL.intervalMs;
    let timer = window.setTimeout(function tick() {
      void fetchNew();
      timer = window.setTimeout(tick, interval);
    }, POLL.startDelayMs);
    return () => window.clearTimeout(timer);
  }, [conversationId, isLive, fetchNew]);

  useEffect(
    () =>
      onLiveFrame((frame) => {
        const isMine = frame.conversation_id === null || (frame.conversation_id === conversationId && frame.seq > lastSeq.current);
        if (!isMine) return;
        if (lastSeq.current === 0) missedFrame.current = true;
        void fetchNew();
      }),
    [conversationId, fetchNew],
  );

  useEffect(() => {
    if (catchUps > 0) void fetchNew();
  }, [catchUps, fetchNew]);

  // The partner opened a photo of mine (live, while both have read receipts on; the next load says so too).
  useEffect(
    () =>
      onLiveSignal((signal) => {
        if (signal.type !== 'opened' || signal.conversation !== conversationId) return;
        setMessages((current) =>
          current.map((m) => (m.id === signal.message && m.from_me && m.photo ? { ...m, photo: { ...m.photo, opened: true } } : m)),
        );
      }),
    [conversationId],
  );

  /** A send the server acknowledged (a text, or a gift or photo sent by their own controls): shown, balance updated. */
  const receive = useCallback(
    (answer: SendMessageResponse) => {
      accept([answer.message]);
      queryClient.setQueryData(userQueryKey, (user: unknown) =>
        user && typeof user === 'object' && 'credits' in user ? { ...user, credits: answer.credits } : user,
      );
      void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
      onSent?.(answer);
    },
    [accept, queryClient, onSent],
  );

  const partnerId = profileId ?? head?.profile.id ?? null;
  /** What this chat has in the outbox, less what a fetch already brought (the answer of its send may come later). */
  const pending = useMemo<PendingMessage[]>(() => {
    const stored = new Set(messages.flatMap((m) => (m.from_me && m.client_id ? [m.client_id] : [])));
    return outbox
      .filter((item) => isFor(item, conversationId, partnerId) && !stored.has(item.clientId))
      .map((item) => ({
        clientId: item.clientId,
        body: item.body,
        status: item.status === 'sending' ? 'pending' : item.status,
        error: outboxError(item),
      }));
  }, [outbox, messages, conversationId, partnerId]);

  // The outbox's answers for this chat: the message is shown (and a new chat learns its conversation).
  useEffect(() => {
    const offSent = onOutboxSent((item, answer) => {
      if (!isFor(item, conversationId, partnerId) && answer.message.conversation_id !== conversationId) return;
      accept([answer.message]);
      onSent?.(answer);
    });
    const offFailed = onOutboxFailed((item, error) => {
      if (isFor(item, conversationId, partnerId)) onFailed?.(error);
    });
    return () => {
      offSent();
      offFailed();
    };
  }, [conversationId, partnerId, accept, onSent, onFailed]);

  const send = useCallback(
    (body: string) => {
      if (userId === null) return;
      enqueueMessage(userId, conversationId !== null ? { conversation: conversationId } : { profile: profileId ?? 0 }, body);
    },
    [userId, conversationId, profileId],
  );

  const retry = useCallback((clientId: string) => userId !== null && retryMessage(userId, clientId), [userId]);
  const discard = useCallback((clientId: string) => userId !== null && discardMessage(userId, clientId), [userId]);

  return { head, messages, pending, loadError, load, loadOlder, send, retry, discard, receive, update: accept };
}
