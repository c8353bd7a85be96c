import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const swipeGameQueryKey = ['swipe-game'] as const;

/** swipe-game.php: a stack of up to 10 cards and the likes left today (spec §9: 4 a day). */
export const swipeGameQuery = () =>
  queryOptions({
    queryKey: swipeGameQueryKey,
    queryFn: () => api('GET /api/swipe-game.php'),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useSwipeGame(isEnabled: boolean) {
  return useQuery({ ...swipeGameQuery(), enabled: isEnabled });
}
