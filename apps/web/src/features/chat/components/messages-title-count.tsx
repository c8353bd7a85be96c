import { useTitleCount } from '@/shared/site/use-page-title';
import { useUnreadMessages } from '../api/chats';
import { useLiveSocket } from '../api/live-socket';

/**
 * A member's chat in the background of every page: unread messages in the tab title prefix and the app badge,
 * beside new likes (spec §2), and the live channel. Renders nothing.
 */
export function MessagesTitleCount() {
  useTitleCount('messages', useUnreadMessages());
  useLiveSocket(true);
  return null;
}
