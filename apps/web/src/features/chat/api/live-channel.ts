import { useSyncExternalStore } from 'react';

/**
 * Between the live channel's socket (live-socket.ts) and the open chats: its frames carry ids only (a conversation
 * and the sequence of a new message), after which a chat fetches everything after its last sequence. While the
 * socket is down `useLiveConnected()` is false and the chats poll as the spec says (start after 5 s; every 60 s).
 */
export interface LiveMessageFrame {
  /** The conversation with a new message; null: any may have one (the socket is (re)subscribed), fetch all. */
  conversation_id: number | null;
  seq: number;
}

type Listener = (frame: LiveMessageFrame) => void;
const frameListeners = new Set<Listener>();
const stateListeners = new Set<() => void>();
let isConnected = false;

/** Calls `listener` with each frame of a new message while subscribed; returns the unsubscribe. */
export function onLiveFrame(listener: Listener): () => void {
  frameListeners.add(listener);
  return () => frameListeners.delete(listener);
}

export function emitLiveFrame(frame: LiveMessageFrame): void {
  for (const listener of frameListeners) listener(frame);
}

export function setLiveConnected(value: boolean): void {
  if (isConnected === value) return;
  isConnected = value;
  for (const listener of stateListeners) listener();
}

/** Whether the live channel is open now (the chat then polls only as a safety net). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => isConnected,
    () => false,
  );
}
