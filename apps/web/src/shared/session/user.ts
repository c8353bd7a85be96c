import { POLL, type User } from '@amora/contracts/core';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { forgetMemberStorage } from './member-storage';
import { usePollInterval } from './polling';

export const userQueryKey = ['user'] as const;

/**
 * Whether a call of this page is ending the member's own session (deleting the account, logging out): the live
 * channel then closes under it, and that call's answer, not the closing, decides where the page goes. Set when
 * such a call starts, cleared when it fails or a member is set again (a login).
 */
let isEndingHere = false;
export function setSessionEndingHere(isEnding: boolean): void {
  isEndingHere = isEnding;
}
export function isSessionEndingHere(): boolean {
  return isEndingHere;
}

/** Runs a call that ends this page's own session (setSessionEndingHere), clearing the mark if it fails. */
export async function endSessionHere<T>(call: () => Promise<T>): Promise<T> {
  setSessionEndingHere(true);
  try {
    return await call();
  } catch (error) {
    setSessionEndingHere(false);
    throw error;
  }
}

/**
 * Makes `user` the member of this page (null: a visitor). When that is someone else than before (another member
 * logged in, the session ended), every query of the one before is dropped except the site settings, so nothing
 * one member was shown (search cards, likes, profiles as they see them) reaches the next one.
 */
export function setSessionUser(queryClient: QueryClient, user: User | null): void {
  const before = queryClient.getQueryData<User | null>(userQueryKey) ?? null;
  if (before?.id !== user?.id) forgetMemberData(queryClient);
  if (user) setSessionEndingHere(false);
  queryClient.setQueryData(userQueryKey, user);
}

/**
 * Drops every query but the member and the site settings, and what this browser keeps of the member in storage
 * (member-storage.ts: the last chat opened): at logout, when the session ends, or another member logs in.
 */
export function forgetMemberData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'settings' && q.queryKey[0] !== 'user' });
  forgetMemberStorage();
}

export async function fetchUser(): Promise<User | null> {
  return (await api('GET /api/user.php')).user;
}

/**
 * The logged-in member (null for visitors); polled from 5 s after load every 60 s, 300 s when push-subscribed
 * (spec §9). An answer with
 * another member, or none, drops what the one before was shown (setSessionUser).
 */
export function useUser(): User | null {
  const interval = usePollInterval();
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: userQueryKey,
    // The session cookie is the browser's: another tab may have logged out, or in as someone else.
    queryFn: async () => {
      const user = await fetchUser();
      const before = queryClient.getQueryData<User | null>(userQueryKey) ?? null;
      if (before?.id !== user?.id) forgetMemberData(queryClient);
      return user;
    },
    staleTime: POLL.intervalMs,
    refetchInterval: (query) => (query.state.data ? interval : false),
  });
  return data ?? null;
}
