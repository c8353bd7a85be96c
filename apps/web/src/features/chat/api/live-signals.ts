/**
 * The live channel's signals beside new messages: the partner is typing, has read up to a sequence, has opened a
 * photo of mine.
 * live-socket.ts passes them on here and says how to send a frame; the open chat listens and signals its typing.
 * Frames are written out here rather than taken from the contracts, so the shell does not load zod.
 */
export type LiveSignal =
  | { type: 'typing'; conversation: number }
  | { type: 'read'; conversation: number; seq: number }
  /** The partner chose to see my photo `message`. */
  | { type: 'opened'; conversation: number; message: number };
type Listener = (signal: LiveSignal) => void;
type Sender = (frame: { type: 'typing'; conversation: number }) => boolean;

const listeners = new Set<Listener>();
let sender: Sender | null = null;

export function onLiveSignal(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitLiveSignal(signal: LiveSignal): void {
  for (const listener of listeners) listener(signal);
}

/** The socket's sender while it is open; null when it closes. */
export function setLiveSender(next: Sender | null): void {
  sender = next;
}

/** Sends a frame when the socket is open; false when there is none (typing is then simply not shown). */
export function sendLiveFrame(frame: { type: 'typing'; conversation: number }): boolean {
  return sender ? sender(frame) : false;
}

/** How often a typing frame goes while the member types (the server passes one on per 2 s, LIVE_TYPING_EVERY_MS). */
export const TYPING_SEND_EVERY_MS = 2_000;
/** How long "… is typing" shows after the last typing frame. */
export const TYPING_SHOW_MS = 5_000;
