import type { AppEventOf } from '@amora/contracts';
import type { AppContext } from '../../context';
import { staffSessionAllows } from '../staff/staff.service';
import type { ConsoleLiveHub } from './console-live.hub';

interface Log {
  error(details: object, message: string): void;
}

/**
 * What the console's live channel does with the bus's events (registered in apps/server/src/listeners.ts): each
 * tells the console streams this process holds that a conversation with a fictional profile changed, naming ids
 * only; with Redis every process gets every event, so a member's message stored on one process reaches the
 * consoles open on any other.
 */
export function consoleLiveListeners(hub: ConsoleLiveHub, ctx: AppContext, log: Log) {
  return {
    /** A member's message to a fictional profile, or an operator's answer as one. */
    messageCreated(event: AppEventOf<'message.created'>): void {
      if (event.fictional) hub.sendAll({ type: 'inbox', conversation_id: event.conversationId, site_id: event.siteId });
    },
    /** A claim taken or let go: the consoles show who is answering. */
    claimChanged(event: AppEventOf<'inbox.claim-changed'>): void {
      hub.sendAll({ type: 'inbox', conversation_id: event.conversationId, site_id: event.siteId });
    },
    /** A sign-out, a session ended elsewhere, a deactivation or another role: their streams whose session may no longer read end. */
    async staffChanged(event: AppEventOf<'staff.changed'>): Promise<void> {
      for (const stream of hub.ofStaff(event.staffId)) {
        try {
          if (!(await staffSessionAllows(ctx, stream.sessionId, stream.roles))) hub.end(stream, true);
        } catch (err) {
          log.error({ err }, 'console live: checking a session failed');
        }
      }
    },
    /** The Redis subscription was lost and is back: every console reads the inbox again. */
    missed(): void {
      hub.sendAll({ type: 'ready' });
    },
  };
}
