import type { SwipeGameResponse } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const swipeGameQueryKey = ['swipe-game'] as const;

/** A stack of up to 10 cards and the likes left today (spec §9: 4 a day). */
export function useSwipeGame(isEnabled: boolean) {
  return useQuery({
    queryKey: swipeGameQueryKey,
    queryFn: () => api<SwipeGameResponse>('/api/swipe-game.php'),
    enabled: isEnabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
