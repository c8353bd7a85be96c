import { POLL, type User, type UserResponse } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

export const userQueryKey = ['user'] as const;

export async function fetchUser(): Promise<User | null> {
  return (await api<UserResponse>('/api/user.php')).user;
}

/** The logged-in member (null for visitors); polled every 60 s from 5 s after load (spec §9). */
export function useUser(): User | null {
  const [isPolling, setIsPolling] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setIsPolling(true), POLL.startDelayMs);
    return () => window.clearTimeout(id);
  }, []);
  const { data } = useQuery({
    queryKey: userQueryKey,
    queryFn: fetchUser,
    staleTime: POLL.intervalMs,
    refetchInterval: (query) => (isPolling && query.state.data ? POLL.intervalMs : false),
  });
  return data ?? null;
}
