import type { LiveServerFrame } from '@amora/contracts';
import { PRESENCE_RENEW_MS } from '@amora/contracts/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ShownMatch, useShowMatch } from '@/shared/modals/show-match';
import { likesQuery, likesQueryKey } from '@/shared/session/likes';
import { isSessionEndingHere, userQueryKey } from '@/shared/session/user';
import { chatsQueryKey } from './chats';
import { emitLiveFrame, setLiveConnected } from './live-channel';
import { emitLiveSignal, setLiveSender } from './live-signals';

/**
 * The live channel's path and the close codes after which the client must not connect again, as in
 * packages/contracts/src/live.ts (copied, so the shell does not load zod; a test keeps them equal).
 */
export const LIVE_SOCKET_PATH = '/api/live';
export const LIVE_NO_RECONNECT = [4401, 4403, 4409] as const;
/** Waits before connecting again: 1 s, doubling up to 30 s. */
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

function liveSocketUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_SOCKET_PATH}`;
}

/** What a frame from the server changes here: a new message, typing, read, likes, a match. Frames are ids only. */
function handleLiveFrame(frame: LiveServerFrame, queryClient: QueryClient, showMatch: (match: ShownMatch) => void): void {
  switch (frame.type) {
    case 'ready':
      setLiveConnected(true);
      emitLiveFrame({ conversation_id: null, seq: 0 });
      void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
      return;
    case 'message':
      emitLiveFrame({ conversation_id: frame.conversation, seq: frame.seq });
      void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
      return;
    case 'typing':
    case 'read':
    case 'opened':
      emitLiveSignal(frame);
      return;
    case 'like':
      void queryClient.invalidateQueries({ queryKey: likesQueryKey });
      return;
    case 'match':
      void queryClient.invalidateQueries({ queryKey: likesQueryKey });
      // I liked first and they liked me back just now: the match modal, as the one who liked back saw it.
      if (frame.liked_first) void showLiveMatch(frame.profile, queryClient, showMatch);
      return;
    default:
      return;
  }
}

/** The match modal for a profile I liked, with its name and picture from my likes (read again: it just changed). */
async function showLiveMatch(profileId: number, queryClient: QueryClient, showMatch: (match: ShownMatch) => void): Promise<void> {
  const likes = await queryClient.fetchQuery({ ...likesQuery(), staleTime: 0 }).catch(() => null);
  const card = likes?.profiles.find((profile) => profile.id === profileId);
  if (!card) return;
  showMatch({ kind: 'match', id: card.id, name: card.name, isFictional: card.is_fictional, imageUrl: card.thumb_url });
}

function parseFrame(data: unknown): LiveServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const frame = JSON.parse(data) as LiveServerFrame;
    return frame && typeof frame === 'object' && typeof frame.type === 'string' ? frame : null;
  } catch {
    return null;
  }
}

/**
 * A member's live channel while mounted: one WebSocket to /api/live (the session cookie authenticates it); on
 * 'ready' every open chat fetches what it missed; closed, it connects again after 1 s, 2 s, 4 s … 30 s, and the
 * chats poll meanwhile. Not again after 4401 (logged out), 4403 (wrong origin) or 4409 (another tab took over).
 */
export function useLiveSocket(isEnabled: boolean): void {
  const queryClient = useQueryClient();
  const showMatch = useShowMatch();
  useEffect(() => {
    if (!isEnabled || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let retryMs = RECONNECT_MIN_MS;
    let timer: number | undefined;
    let isStopped = false;
    // Whether the page is visible, said when the channel opens, when it changes and every PRESENCE_RENEW_MS while
    // visible: the server sends no mail or push about what the member sees here.
    const sendPresence = () => {
      if (socket?.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify({ type: 'presence', visible: document.visibilityState === 'visible' }));
    };
    const renew = window.setInterval(() => {
      if (document.visibilityState === 'visible') sendPresence();
    }, PRESENCE_RENEW_MS);
    document.addEventListener('visibilitychange', sendPresence);
    const connect = () => {
      try {
        socket = new WebSocket(liveSocketUrl());
      } catch {
        return;
      }
      socket.onmessage = (event) => {
        const frame = parseFrame(event.data);
        if (!frame) return;
        if (frame.type === 'ready') {
          retryMs = RECONNECT_MIN_MS;
          const open = socket;
          setLiveSender((out) => {
            if (open?.readyState !== WebSocket.OPEN) return false;
            open.send(JSON.stringify(out));
            return true;
          });
          sendPresence();
        }
        handleLiveFrame(frame, queryClient, showMatch);
      };
      socket.onclose = (event) => {
        setLiveConnected(false);
        setLiveSender(null);
        socket = null;
        // The session ended (logged out elsewhere, a password change, a moderator's suspension or ban): the member
        // is asked for again at once, so this tab shows them logged out now rather than at the next poll.
        // A call of this tab (deleting the account, logging out) ended it itself, or one still under way may have
        // (a password change): that call's answer decides where the page goes, so the member is not asked for under
        // it, also when the closing arrives after the answer, while the next page is still loading.
        if (event.code === LIVE_NO_RECONNECT[0] && queryClient.isMutating() === 0 && !isSessionEndingHere()) {
          void queryClient.invalidateQueries({ queryKey: userQueryKey });
        }
        if (isStopped || (LIVE_NO_RECONNECT as readonly number[]).includes(event.code)) return;
        timer = window.setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
      };
    };
    connect();
    return () => {
      isStopped = true;
      window.clearTimeout(timer);
      window.clearInterval(renew);
      document.removeEventListener('visibilitychange', sendPresence);
      socket?.close(1000);
      setLiveConnected(false);
      setLiveSender(null);
    };
  }, [isEnabled, queryClient, showMatch]);
}
