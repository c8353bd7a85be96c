import type { Chat } from '@amora/contracts';
import { storage } from '@/lib/storage';
import { LAST_CHAT_STORAGE_KEY } from '@/shared/session/member-storage';

/** Where this browser keeps the chat a member opened last, removed at logout (shared/session/member-storage.ts). */
export { LAST_CHAT_STORAGE_KEY };

/** The spec's last_chat_opened_profile and last_chat_opened_date, with the member they belong to. */
export interface LastChatOpened {
  member: number;
  last_chat_opened_profile: number;
  last_chat_opened_date: string;
}

/** Remembers that `member` opened the chat with `profile` now. */
export function rememberChatOpened(member: number, profile: number): void {
  const last: LastChatOpened = { member, last_chat_opened_profile: profile, last_chat_opened_date: new Date().toISOString() };
  storage.set(LAST_CHAT_STORAGE_KEY, JSON.stringify(last));
}

/** The chat `member` opened last in this browser (another member's is not theirs), or null. */
export function lastChatOpened(member: number): LastChatOpened | null {
  try {
    const last = JSON.parse(storage.get(LAST_CHAT_STORAGE_KEY) ?? 'null') as Partial<LastChatOpened> | null;
    if (!last || last.member !== member || typeof last.last_chat_opened_profile !== 'number') return null;
    return last as LastChatOpened;
  } catch {
    return null;
  }
}

/** Chats that cannot be reopened by themselves: blocked either way, or the partner gone. */
const CLOSED: ReadonlySet<Chat['blocked']> = new Set(['blocked_by_partner', 'blocked_partner', 'partner_gone']);

/** The chat to open on /chats from the last one opened: still in the list and nobody blocked; else none. */
export function chatToReopen(chats: readonly Chat[], last: LastChatOpened | null): Chat | null {
  if (!last) return null;
  return chats.find((chat) => chat.profile.id === last.last_chat_opened_profile && !CLOSED.has(chat.blocked)) ?? null;
}
