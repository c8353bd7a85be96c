import { CONSOLE_LIVE_PATH, type ConsoleLiveFrame, consoleLiveFrameSchema } from '@amora/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { meQueryKey } from '../api/console';
import { inboxQueryKey } from './inbox-api';

/** Notices closer together than this are read as one: the inbox is read at once, then at most once per this long. */
const COALESCE_MS = 300;
/** After the server refused the stream (an error answer, not a lost connection), it is asked again this much later. */
const REOPEN_MS = 15_000;

function frameOf(data: unknown): ConsoleLiveFrame | null {
  try {
    const parsed = consoleLiveFrameSchema.safeParse(JSON.parse(String(data)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The console's live channel while the inbox is open (GET /api/console/live, Server-Sent Events): a notice that a
 * conversation with a fictional profile changed (a member's message, an answer, a claim) reads the inbox's
 * queries again, a burst of them once. The browser reconnects a lost stream by itself; a stream that ends because
 * the session did asks who is signed in, which brings back the sign-in. Answers how the stream stands: `open`
 * (the inbox polls slowly then), `connecting` (the first time), or `off` (lost or refused: it polls more often, and
 * says so).
 */
export type InboxLiveState = 'connecting' | 'open' | 'off';

export function useInboxLive(): InboxLiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<InboxLiveState>('connecting');

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setState('off');
      return;
    }
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    let lastRead = 0;
    let stopped = false;

    const read = () => {
      lastRead = Date.now();
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
    };
    /** At once when the last read is older than COALESCE_MS, else once at its end. */
    const readSoon = () => {
      const wait = lastRead + COALESCE_MS - Date.now();
      if (wait <= 0) {
        read();
      } else if (trailing === undefined) {
        trailing = setTimeout(() => {
          trailing = undefined;
          read();
        }, wait);
      }
    };
    const connect = () => {
      if (stopped) return;
      const stream = new EventSource(CONSOLE_LIVE_PATH);
      source = stream;
      stream.onopen = () => setState('open');
      stream.onmessage = (event: MessageEvent) => {
        const frame = frameOf(event.data);
        if (!frame) return;
        if (frame.type === 'ended') {
          stream.close();
          setState('off');
          void queryClient.invalidateQueries({ queryKey: meQueryKey });
          return;
        }
        // `ready` (opened again: something may have been missed) or a notice.
        readSoon();
      };
      stream.onerror = () => {
        setState('off');
        // A lost connection is reconnected by the browser; a refusal (401, 403, an error) closes the stream.
        if (stream.readyState !== EventSource.CLOSED) return;
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
        reopen = setTimeout(connect, REOPEN_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(reopen);
      clearTimeout(trailing);
    };
  }, [queryClient]);

  return state;
}
