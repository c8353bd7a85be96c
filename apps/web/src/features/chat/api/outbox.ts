import type { SendMessageResponse } from '@amora/contracts';
import type { ApiError } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { ApiRequestError, SwallowedError } from '@/lib/api-client';
import { storage } from '@/lib/storage';
import { userQueryKey } from '@/shared/session/user';
import { chatsQueryKey, postMessage } from './chats';
import { onLiveFrame } from './live-channel';

/**
 * The chat's outbox: text messages typed here that the server has not acknowledged yet, kept in localStorage (per
 * member) so that a message written while the connection is down survives a reload or a closed tab. Each keeps its
 * client id from the moment it was typed, so however often it is sent (again after a reload, from two tabs at
 * once) the server stores and charges it once. A send the server refuses (credits, a block, the free members'
 * limit, a bad text) leaves the queue: it stays shown with its reason, Try again and Discard, and is never sent
 * again by itself.
 */
export interface OutboxItem {
  clientId: string;
  body: string;
  to: { conversation: number } | { profile: number };
  /** When it was typed (ms). */
  createdAt: number;
  /** sending: on its way now; waiting: queued for the connection; failed: refused, out of the queue. */
  status: 'sending' | 'waiting' | 'failed';
  /** The refusal (status failed), as the server answered it. */
  error?: { status: number; body: ApiError };
  /** Server errors (5xx) in a row; after SERVER_ERRORS_MAX the message leaves the queue. */
  serverErrors?: number;
}

/** After this many server errors in a row a message stops being sent by itself (a network error never counts). */
export const SERVER_ERRORS_MAX = 5;
/** Waits before sending what is queued again while the server cannot be reached: 5 s, doubling up to 60 s. */
const RETRY_MIN_MS = 5_000;
const RETRY_MAX_MS = 60_000;

const keyOf = (userId: number) => `amora.chat.outbox.${userId}`;

let owner: number | null = null;
let items: readonly OutboxItem[] = [];
/** What storage held when this tab last read or wrote it: another tab's change (or a cleared storage) differs. */
let stored: string | null = null;
const inFlight = new Set<string>();
const listeners = new Set<() => void>();
type SentListener = (item: OutboxItem, answer: SendMessageResponse) => void;
type FailedListener = (item: OutboxItem, error: ApiRequestError) => void;
const sentListeners = new Set<SentListener>();
const failedListeners = new Set<FailedListener>();

function isItem(value: unknown): value is OutboxItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<OutboxItem>;
  return typeof v.clientId === 'string' && typeof v.body === 'string' && typeof v.to === 'object' && v.to !== null;
}

function read(raw: string | null): OutboxItem[] {
  try {
    const parsed: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(isItem).map((item) => (item.status === 'failed' ? item : { ...item, status: 'waiting' as const }))
      : [];
  } catch {
    return [];
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

/**
 * Makes `userId`'s outbox the one in memory, read again from storage when the member changed or another tab
 * changed it (what that tab sent is gone, what it queued is here; what this tab is sending stays "sending").
 */
function use(userId: number): void {
  const raw = storage.get(keyOf(userId));
  if (owner === userId && raw === stored) return;
  if (owner !== userId) inFlight.clear();
  owner = userId;
  stored = raw;
  items = read(raw).map((item) => (inFlight.has(item.clientId) ? { ...item, status: 'sending' as const } : item));
}

function write(next: OutboxItem[]): void {
  items = next;
  if (owner !== null) {
    if (next.length === 0) storage.remove(keyOf(owner));
    else storage.set(keyOf(owner), JSON.stringify(next));
    stored = storage.get(keyOf(owner));
  }
  emit();
}

function change(clientId: string, patch: Partial<OutboxItem> | null): void {
  write(items.flatMap((item) => (item.clientId !== clientId ? [item] : patch ? [{ ...item, ...patch }] : [])));
}

/** Another tab changed the outbox: show its version. */
function onStorage(event: StorageEvent): void {
  if (owner === null || event.key !== keyOf(owner)) return;
  use(owner);
  emit();
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

let flushing: Promise<void> | null = null;
let flushAgain = false;
let retryTimer: number | undefined;
let retryMs = RETRY_MIN_MS;

function scheduleRetry(userId: number): void {
  if (retryTimer !== undefined) return;
  retryTimer = window.setTimeout(() => {
    retryTimer = undefined;
    void flushOutbox(userId);
  }, retryMs);
  retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
}

function cancelRetry(): void {
  window.clearTimeout(retryTimer);
  retryTimer = undefined;
}

/** Sends one queued message (with its own client id); true when the server could not be reached. */
async function deliver(userId: number, item: OutboxItem): Promise<boolean> {
  inFlight.add(item.clientId);
  change(item.clientId, { status: 'sending' });
  try {
    const answer = await postMessage({ ...item.to, body: item.body, client_id: item.clientId });
    if (owner === userId) change(item.clientId, null);
    for (const listener of sentListeners) listener(item, answer);
    return false;
  } catch (error) {
    if (owner !== userId) return false;
    const isRefusal = error instanceof ApiRequestError && error.status > 0 && error.status < 500 && error.status !== 429;
    if (error instanceof SwallowedError) {
      // Logged out meanwhile: it waits for this member's next login.
      change(item.clientId, { status: 'waiting' });
      return false;
    }
    const serverErrors = (item.serverErrors ?? 0) + (error instanceof ApiRequestError && error.status >= 500 ? 1 : 0);
    if (isRefusal || serverErrors >= SERVER_ERRORS_MAX) {
      const refusal = error as ApiRequestError;
      change(item.clientId, { status: 'failed', error: { status: refusal.status, body: refusal.body }, serverErrors: 0 });
      for (const listener of failedListeners) listener(item, refusal);
      return false;
    }
    change(item.clientId, { status: 'waiting', serverErrors });
    return true;
  } finally {
    inFlight.delete(item.clientId);
  }
}

/**
 * Sends every queued message of the member, oldest first, one at a time (so they arrive in the order typed); when
 * the server cannot be reached the rest wait and it tries again later (5 s doubling to 60 s), when the browser is
 * back online, or when the live channel reconnects.
 */
function flushOutbox(userId: number): Promise<void> {
  use(userId);
  if (isOffline()) return Promise.resolve();
  if (flushing) {
    flushAgain = true;
    return flushing;
  }
  flushing = (async () => {
    do {
      flushAgain = false;
      for (const item of [...items]) {
        use(userId);
        if (owner !== userId) return;
        const current = items.find((i) => i.clientId === item.clientId);
        if (!current || current.status === 'failed' || inFlight.has(current.clientId)) continue;
        if (await deliver(userId, current)) {
          scheduleRetry(userId);
          return;
        }
      }
    } while (flushAgain);
    retryMs = RETRY_MIN_MS;
    cancelRetry();
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

/** Queues a text message with a new client id and sends it when it can (at once when online). */
export function enqueueMessage(userId: number, to: OutboxItem['to'], body: string): OutboxItem {
  use(userId);
  const item: OutboxItem = { clientId: crypto.randomUUID(), body, to, createdAt: Date.now(), status: 'waiting' };
  write([...items, item]);
  void flushOutbox(userId);
  return item;
}

/** Try again: a refused message goes back into the queue, with its client id, and is sent now. */
export function retryMessage(userId: number, clientId: string): void {
  use(userId);
  change(clientId, { status: 'waiting', error: undefined, serverErrors: 0 });
  retryMs = RETRY_MIN_MS;
  cancelRetry();
  void flushOutbox(userId);
}

export function discardMessage(userId: number, clientId: string): void {
  use(userId);
  change(clientId, null);
}

/** Calls `listener` with each queued message the server acknowledged (and its answer). */
export function onOutboxSent(listener: SentListener): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

/** Calls `listener` with each queued message the server refused (it left the queue). */
export function onOutboxFailed(listener: FailedListener): () => void {
  failedListeners.add(listener);
  return () => failedListeners.delete(listener);
}

/** The refusal of a failed message, as the error the rest of the chat reads. */
export function outboxError(item: OutboxItem): ApiRequestError | undefined {
  return item.error ? new ApiRequestError(item.error.status, item.error.body) : undefined;
}

const EMPTY: readonly OutboxItem[] = [];

/** The member's outbox (null: a visitor, nothing). */
export function useOutbox(userId: number | null): readonly OutboxItem[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => {
      if (userId === null) return EMPTY;
      use(userId);
      return items;
    },
    () => EMPTY,
  );
}

/**
 * The outbox at work for a member on every page (mounted with the live channel): what waits is sent on start (a
 * reload, a reopened tab), when the browser is back online and when the live channel says it is connected again.
 * Each send answered updates the balance and the list of chats.
 */
export function useOutboxSender(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    use(userId);
    const flush = () => {
      retryMs = RETRY_MIN_MS;
      cancelRetry();
      void flushOutbox(userId);
    };
    const offSent = onOutboxSent((_item, answer) => {
      queryClient.setQueryData(userQueryKey, (user: unknown) =>
        user && typeof user === 'object' && 'credits' in user ? { ...user, credits: answer.credits } : user,
      );
      void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
    });
    const offReady = onLiveFrame((frame) => {
      if (frame.conversation_id === null && items.some((item) => item.status === 'waiting')) flush();
    });
    window.addEventListener('online', flush);
    window.addEventListener('storage', onStorage);
    flush();
    return () => {
      offSent();
      offReady();
      window.removeEventListener('online', flush);
      window.removeEventListener('storage', onStorage);
      cancelRetry();
    };
  }, [userId, queryClient]);
}
