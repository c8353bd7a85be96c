import type { Message } from '@amora/contracts';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { onLiveSignal, sendLiveFrame, TYPING_SEND_EVERY_MS, TYPING_SHOW_MS } from '../api/live-signals';
import { ReportDialog, type ReportTarget } from './report-dialog';

interface ChatSafetyState {
  conversationId: number | null;
  partnerName: string;
  isFictional: boolean;
  /** My last message the partner has read (it shows "Seen"); null when none is, or receipts are off. */
  seenSeq: number | null;
  /** Whether the partner is typing now (a typing frame in the last few seconds). */
  isPartnerTyping: boolean;
  /** Call as I type: a typing frame goes at most every 2 s. */
  notifyTyping: () => void;
  /** Opens the report dialog for one of the partner's messages, or (no id) for the partner. */
  openReport: (messageId?: number) => void;
}

const noop = () => {};
const NONE: ChatSafetyState = {
  conversationId: null,
  partnerName: '',
  isFictional: false,
  seenSeq: null,
  isPartnerTyping: false,
  notifyTyping: noop,
  openReport: noop,
};

// The open chat's state, shared with its header, bubbles, typing line and composer (one chat is open at a time).
let current: ChatSafetyState = NONE;
const listeners = new Set<() => void>();
function publish(next: ChatSafetyState): void {
  current = next;
  for (const listener of listeners) listener();
}

export function useChatSafety(): ChatSafetyState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => NONE,
  );
}

/** The last of my messages at or before `readSeq`, or null. */
export function lastSeenSeq(messages: Message[], readSeq: number | null): number | null {
  if (readSeq === null) return null;
  let seen: number | null = null;
  for (const message of messages) if (message.from_me && message.seq <= readSeq) seen = message.seq;
  return seen;
}

/**
 * What an open chat adds for safety and presence: how far the partner has read (from the messages call, then the
 * live `read` frames; the server sends neither when either member turned read receipts off), whether the partner
 * is typing (live `typing` frames), my own typing frames, and the report dialog.
 */
export function ChatSafety({
  conversationId,
  partner,
  messages,
  partnerReadSeq,
}: {
  conversationId: number | null;
  partner: { name: string; is_fictional: boolean };
  messages: Message[];
  partnerReadSeq: number | null | undefined;
}) {
  const [liveReadSeq, setLiveReadSeq] = useState<number | null>(null);
  const [typingAt, setTypingAt] = useState<number | null>(null);
  const [report, setReport] = useState<ReportTarget | null>(null);
  const lastTypingSent = useRef(0);

  useEffect(() => {
    setLiveReadSeq(null);
    setTypingAt(null);
    if (conversationId === null) return;
    return onLiveSignal((signal) => {
      if (signal.conversation !== conversationId) return;
      if (signal.type === 'read') setLiveReadSeq((current) => Math.max(current ?? 0, signal.seq));
      else if (signal.type === 'typing') setTypingAt(Date.now());
    });
  }, [conversationId]);

  // "… is typing" ends a few seconds after the last frame, or when their message arrives.
  useEffect(() => {
    if (typingAt === null) return;
    const timer = window.setTimeout(() => setTypingAt(null), TYPING_SHOW_MS);
    return () => window.clearTimeout(timer);
  }, [typingAt]);
  const last = messages.at(-1);
  const lastTheirs = last && !last.from_me ? last.seq : null;
  useEffect(() => {
    if (lastTheirs !== null) setTypingAt(null);
  }, [lastTheirs]);

  const notifyTyping = useCallback(() => {
    if (conversationId === null) return;
    const now = Date.now();
    if (now - lastTypingSent.current < TYPING_SEND_EVERY_MS) return;
    if (sendLiveFrame({ type: 'typing', conversation: conversationId })) lastTypingSent.current = now;
  }, [conversationId]);

  const openReport = useCallback(
    (messageId?: number) => {
      if (conversationId === null) return;
      setReport({ conversation: conversationId, name: partner.name, ...(messageId !== undefined ? { message: messageId } : {}) });
    },
    [conversationId, partner.name],
  );

  const readSeq = partnerReadSeq === null || partnerReadSeq === undefined ? liveReadSeq : Math.max(partnerReadSeq, liveReadSeq ?? 0);
  const seenSeq = lastSeenSeq(messages, readSeq);
  const isPartnerTyping = typingAt !== null;
  useEffect(() => {
    publish({
      conversationId,
      partnerName: partner.name,
      isFictional: partner.is_fictional,
      seenSeq,
      isPartnerTyping,
      notifyTyping,
      openReport,
    });
  }, [conversationId, partner.name, partner.is_fictional, seenSeq, isPartnerTyping, notifyTyping, openReport]);
  useEffect(() => () => publish(NONE), []);
  return <ReportDialog target={report} onClose={() => setReport(null)} />;
}
