import type { AppEventOf, LiveServerFrame } from '@amora/contracts';
import { LIVE_CLOSE } from '@amora/contracts';
import type { AppContext } from '../../context';
import { sessionIsOpen } from '../sessions/sessions.service';
import type { LiveHub } from './live.hub';

interface Log {
  error(details: object, message: string): void;
}

/**
 * What the live channel does with the bus's events (registered in apps/server/src/listeners.ts): each pushes a
 * frame naming ids only to the sockets this process holds for the members concerned; with Redis every process
 * gets every event, so a member's sockets on any process hear of a change made on another.
 */
export function liveListeners(hub: LiveHub, ctx: Pick<AppContext, 'db' | 'now'>, log: Log) {
  /** Closes the member's sockets whose session has ended (4401); the others stay. */
  async function closeEnded(userId: number): Promise<void> {
    for (const client of hub.ofUser(userId)) {
      if (await sessionIsOpen(ctx, client.tokenHash)) continue;
      hub.remove(client);
      client.socket.close(LIVE_CLOSE.unauthenticated, 'session ended');
    }
  }

  return {
    messageCreated(event: AppEventOf<'message.created'>): void {
      const push: LiveServerFrame = { type: 'message', conversation: event.conversationId, seq: event.seq };
      hub.sendTo(event.recipientProfileId, event.siteId, push);
      hub.sendTo(event.senderProfileId, event.siteId, push);
    },
    likeCreated(event: AppEventOf<'like.created'>): void {
      hub.sendTo(event.likedProfileId, event.siteId, { type: 'like' });
    },
    matchCreated(event: AppEventOf<'match.created'>): void {
      hub.sendTo(event.profileId, event.siteId, { type: 'match', profile: event.matchedProfileId, liked_first: false });
      hub.sendTo(event.matchedProfileId, event.siteId, { type: 'match', profile: event.profileId, liked_first: true });
    },
    chatTyped(event: AppEventOf<'chat.typed'>): void {
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'typing', conversation: event.conversationId });
    },
    chatRead(event: AppEventOf<'chat.read'>): void {
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'read', conversation: event.conversationId, seq: event.seq });
    },
    chatPhotoOpened(event: AppEventOf<'chat.photo-opened'>): void {
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'opened', conversation: event.conversationId, message: event.messageId });
    },
    /** A logout, a new password, a deletion: the member's sockets whose session is gone are closed with 4401. */
    async sessionEnded(event: AppEventOf<'session.ended'>): Promise<void> {
      if (hub.ofUser(event.userId).length === 0) return;
      await closeEnded(event.userId).catch((err: unknown) => log.error({ err }, 'live: checking sessions failed'));
    },
    /**
     * The Redis subscription was lost and is back: events of other processes meanwhile are gone (a message to a
     * member here among them). Every socket is told 'ready' again, so its client fetches what came after its last
     * sequences, as after a reconnection.
     */
    missed(): void {
      hub.sendAll({ type: 'ready' });
    },
  };
}
