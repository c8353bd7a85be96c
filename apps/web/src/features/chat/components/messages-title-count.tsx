import { useUser } from '@/shared/session/user';
import { useTitleCount } from '@/shared/site/use-page-title';
import { useUnreadMessages } from '../api/chats';
import { useLiveSocket } from '../api/live-socket';
import { useOutboxSender } from '../api/outbox';

/**
 * A member's chat in the background of every page: unread messages in the tab title prefix and the app badge,
 * beside new likes (spec §2), the live channel, and the outbox sending what was written while offline. Renders
 * nothing.
 */
export function MessagesTitleCount() {
  useTitleCount('messages', useUnreadMessages());
  useLiveSocket(true);
  useOutboxSender(useUser()?.id ?? null);
  return null;
}
