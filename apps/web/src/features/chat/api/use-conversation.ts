import type { Message, MessagesResponse, SendMessageResponse } from '@amora/contracts';
import { POLL } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api-client';
import { userQueryKey } from '@/shared/session/user';
import { chatsQueryKey, fetchMessages, postChatRead, postMessage, updateCachedChat } from './chats';
import { onLiveFrame, useLiveConnected } from './live-channel';

/** A message typed here that the server has not acknowledged yet (or refused). */
export interface PendingMessage {
  clientId: string;
  body: string;
  status: 'pending' | 'failed';
  error?: unknown;
}

/** Where a send goes: a conversation of mine, or a member I have no conversation with yet. */
export type ChatTarget = { conversation: number } | { profile: number };

/** Merges messages by sequence: one per seq (a message seen twice is kept once), oldest first. */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return current;
  const bySeq = new Map(current.map((m) => [m.seq, m]));
  for (const message of incoming) bySeq.set(message.seq, message);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** A network failure (or a server error) is worth sending again with the same client id; a refusal is not. */
const isRetryable = (error: unknown) => !(error instanceof ApiRequestError) || error.status >= 500;

/**
 * One open chat: its newest page, then whatever comes after its last sequence (on a live frame, or by polling
 * from 5 s after opening every 60 s, 300 s while the live channel is open), de-duplicated by sequence; older
 * pages on demand; and sending, offline first: each send has a client id (crypto.randomUUID()), shows as pending
 * until acknowledged, and is sent again with the same id (so never stored or charged twice) when asked or when
 * the browser is back online.
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
  const [pending, setPending] = useState<PendingMessage[]>([]);
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
    setPending([]);
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

  const deliver = useCallback(
    async (clientId: string, body: string) => {
      setPending((list) => list.map((p) => (p.clientId === clientId ? { ...p, status: 'pending', error: undefined } : p)));
      try {
        const to = conversationId !== null ? { conversation: conversationId } : { profile: profileId ?? 0 };
        const answer = await postMessage({ ...to, body, client_id: clientId });
        setPending((list) => list.filter((p) => p.clientId !== clientId));
        receive(answer);
      } catch (error) {
        setPending((list) => list.map((p) => (p.clientId === clientId ? { ...p, status: 'failed', error } : p)));
        onFailed?.(error);
      }
    },
    [conversationId, profileId, receive, onFailed],
  );

  const send = useCallback(
    (body: string) => {
      const clientId = crypto.randomUUID();
      setPending((list) => [...list, { clientId, body, status: 'pending' }]);
      void deliver(clientId, body);
    },
    [deliver],
  );

  const retry = useCallback(
    (clientId: string) => {
      const message = pending.find((p) => p.clientId === clientId);
      if (message) void deliver(clientId, message.body);
    },
    [pending, deliver],
  );

  const discard = useCallback((clientId: string) => setPending((list) => list.filter((p) => p.clientId !== clientId)), []);

  // Back online: what failed on the network goes again, with its own id.
  useEffect(() => {
    const resend = () => {
      for (const p of pending) if (p.status === 'failed' && isRetryable(p.error)) void deliver(p.clientId, p.body);
    };
    window.addEventListener('online', resend);
    return () => window.removeEventListener('online', resend);
  }, [pending, deliver]);

  return { head, messages, pending, loadError, load, loadOlder, send, retry, discard, receive, update: accept };
}
