import { useSyncExternalStore } from 'react';

/**
 * The plug for the live channel (/api/live): its frames carry ids only (a conversation and the sequence of a new
 * message), after which the chat fetches everything after its last sequence. Until the socket's contract exists
 * nothing connects, `useLiveConnected()` stays false, and the chat polls as the spec says (start after 5 s;
 * every 60 s). The socket client calls `setLiveConnected` and `emitLiveFrame`; nothing else has to change.
 */
export interface LiveMessageFrame {
  conversation_id: number;
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
