import { useTitleCount } from '@/shared/site/use-page-title';
import { useUnreadMessages } from '../api/chats';

/** Unread messages in the tab title prefix and the app badge, beside new likes (spec §2); renders nothing. */
export function MessagesTitleCount() {
  useTitleCount('messages', useUnreadMessages());
  return null;
}
