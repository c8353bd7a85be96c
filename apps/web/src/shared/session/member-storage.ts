import { storage } from '@/lib/storage';

/** Where this browser keeps the chat a member opened last (features/chat/api/last-chat.ts; spec §3 chat state). */
export const LAST_CHAT_STORAGE_KEY = 'last_chat_opened';

/**
 * What this browser keeps of a member that tells who they are in touch with and must not outlive their session:
 * on a shared computer the next person would see it. A feature that keeps such a thing adds its key here.
 */
const MEMBER_STORAGE_KEYS = [LAST_CHAT_STORAGE_KEY];

/** Removes it, when the member logs out or the session ends (forgetMemberData). */
export function forgetMemberStorage(): void {
  for (const key of MEMBER_STORAGE_KEYS) storage.remove(key);
}
