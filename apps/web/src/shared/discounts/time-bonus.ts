import type { DiscountCodeView, User } from '@amora/contracts/core';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { useUser } from '@/shared/session/user';

/** The member's time bonus as this page holds it: the code and when it ends on this browser's clock. */
export interface TimeBonus {
  discount: DiscountCodeView;
  /** ms since the epoch: the answer's seconds_left counted from when it arrived, so the server's clock does not matter. */
  endsAt: number;
}

const timeBonusQueryKey = (userId: number | null) => ['timeBonus', userId] as const;
const welcomeDiscountQueryKey = (userId: number | null) => ['welcomeDiscount', userId] as const;

/** timebonus.php: the member's time bonus, null when there is none (asked for members who have not paid). */
const timeBonusQuery = (userId: number | null) =>
  queryOptions({
    queryKey: timeBonusQueryKey(userId),
    queryFn: async (): Promise<TimeBonus | null> => {
      const answer = await api('GET /api/timebonus.php');
      if (!answer.is_visible || !answer.discount || answer.seconds_left <= 0) return null;
      return { discount: answer.discount, endsAt: Date.now() + answer.seconds_left * 1000 };
    },
    staleTime: 5 * 60_000,
  });

/** discountcode.php?welcome: the member's welcome discount, null when there is none (failures too, spec §8). */
const welcomeDiscountQuery = (userId: number | null) =>
  queryOptions({
    queryKey: welcomeDiscountQueryKey(userId),
    queryFn: async (): Promise<DiscountCodeView | null> => {
      try {
        return (await api('GET /api/discountcode.php', { query: { welcome: 'true' } })).discount;
      } catch {
        return null;
      }
    },
    staleTime: 30 * 60_000,
    retry: false,
  });

/**
 * What the members' banners need (app/shell's data): the time bonus, and once it is known not to be there the
 * welcome discount, for a member who has not paid.
 */
export async function prefetchDiscounts(queryClient: QueryClient, user: User): Promise<void> {
  if (user.paid_user) return;
  const bonus = await queryClient.fetchQuery(timeBonusQuery(user.id)).catch(() => undefined);
  if (bonus === null) await queryClient.prefetchQuery(welcomeDiscountQuery(user.id));
}

/**
 * Spec §4 time bonus: loaded when a member is logged in (the query belongs to the member, so logging out drops it
 * with the rest of their data), for members who have not paid. Null when there is none, once it has reached zero,
 * and as soon as the member is paid.
 */
export function useTimeBonus(): TimeBonus | null {
  return useTimeBonusState().bonus;
}

/** The time bonus, and whether its answer is in (or will never be asked for: visitors, paid members). */
function useTimeBonusState(): { bonus: TimeBonus | null; isKnown: boolean } {
  const user = useUser();
  const queryClient = useQueryClient();
  const isEligible = user !== null && !user.paid_user;
  const userId = user?.id ?? null;
  const { data, isSuccess, isError } = useQuery({ ...timeBonusQuery(userId), enabled: isEligible });
  const endsAt = data?.endsAt ?? null;
  // Cleared at zero: once the end has passed the query holds null, for every component that reads it.
  useEffect(() => {
    if (endsAt === null) return;
    const timer = window.setTimeout(() => queryClient.setQueryData(timeBonusQueryKey(userId), null), Math.max(0, endsAt - Date.now()));
    return () => window.clearTimeout(timer);
  }, [endsAt, userId, queryClient]);
  if (!isEligible) return { bonus: null, isKnown: true };
  const bonus = data && data.endsAt > Date.now() ? data : null;
  return { bonus, isKnown: isSuccess || isError };
}

/**
 * The member's welcome discount (spec main state welcomeDiscountcode; §9: 25 %, time-limited), asked for once the
 * time bonus is known not to be there. Failures are ignored (spec §8): no discount then.
 */
export function useWelcomeDiscount(isWanted = true): DiscountCodeView | null {
  const user = useUser();
  const { bonus, isKnown } = useTimeBonusState();
  const isEligible = user !== null && !user.paid_user;
  const { data } = useQuery({
    ...welcomeDiscountQuery(user?.id ?? null),
    enabled: isWanted && isEligible && isKnown && bonus === null,
  });
  if (!isEligible || !data || new Date(data.expires).getTime() <= Date.now()) return null;
  return data;
}

/**
 * The active discount (spec main state): the time bonus if there is one, otherwise the welcome discount; null
 * for visitors, paid members and when neither is there.
 */
export function useActiveDiscount(): DiscountCodeView | null {
  const bonus = useTimeBonus();
  const welcome = useWelcomeDiscount();
  return bonus?.discount ?? welcome;
}
