import { POLL } from '@amora/contracts/core';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setPushSubscribed, usePushSubscribed } from '@/shared/push/push-subscription';
import { runPushSubscribed } from '@/testing/browser';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderAppHook } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { useFakeClock } from '@/testing/timers';
import { useUser } from './user';

/** Polling of spec §9: from 5 s after load, every 60 s (300 s when push-subscribed). */
describe('useUser polling', () => {
  it('asks user.php again from 5 s after load, every 60 s, and shows what it answers', async () => {
    const clock = useFakeClock();
    const { result } = await renderAppHook(() => useUser(), { user: userFixture({ credits: 10 }) });
    const calls = recordCalls();
    expect(result.current?.credits).toBe(10);

    server.use(answers.user(userFixture({ credits: 3 })));
    await clock.at(POLL.startDelayMs + POLL.intervalMs - 1);
    expect(calls).toEqual([]);
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(calls).toEqual(['GET /api/user.php']);
    expect(result.current?.credits).toBe(3);
    await clock.at(POLL.startDelayMs + 2 * POLL.intervalMs - 1);
    expect(calls).toHaveLength(1);
    await clock.at(POLL.startDelayMs + 3 * POLL.intervalMs);
    expect(calls).toHaveLength(3);
  });

  it('does not poll for a visitor', async () => {
    const clock = useFakeClock();
    const { result } = await renderAppHook(() => useUser(), { user: null });
    const calls = recordCalls();
    await clock.at(POLL.startDelayMs + 5 * POLL.intervalMs);
    expect(result.current).toBeNull();
    expect(calls).toEqual([]);
  });

  it('stops when the member logs out in between', async () => {
    const clock = useFakeClock();
    const { result } = await renderAppHook(() => useUser(), { user: userFixture() });
    const calls = recordCalls();
    server.use(answers.user(null));
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(calls).toEqual(['GET /api/user.php']);
    expect(result.current).toBeNull();
    await clock.at(POLL.startDelayMs + 4 * POLL.intervalMs);
    expect(calls).toHaveLength(1);
  });

  it('drops what the member was shown when the session turns out to be someone else (another tab logged in)', async () => {
    const clock = useFakeClock();
    const { result, queryClient } = await renderAppHook(() => useUser(), { user: userFixture({ id: 1 }), likes: likesFixture() });
    queryClient.setQueryData(['likes'], likesFixture());
    queryClient.setQueryData(['search', {}], { pages: [], pageParams: [] });
    server.use(answers.user(userFixture({ id: 2 })));
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(result.current?.id).toBe(2);
    expect(queryClient.getQueryData(['likes'])).toBeUndefined();
    expect(queryClient.getQueryData(['search', {}])).toBeUndefined();
  });

  it('keeps it when the poll answers the same member', async () => {
    const clock = useFakeClock();
    const { queryClient } = await renderAppHook(() => useUser(), { user: userFixture({ id: 1 }) });
    queryClient.setQueryData(['likes'], likesFixture());
    server.use(answers.user(userFixture({ id: 1, credits: 3 })));
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(queryClient.getQueryData(['likes'])).toEqual(likesFixture());
  });

  it('polls every 300 s instead while the member is push-subscribed, and every 60 s again once not', async () => {
    const clock = useFakeClock();
    runPushSubscribed();
    await renderAppHook(() => useUser(), { user: userFixture() });
    const calls = recordCalls();
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs - 1);
    expect(calls).toEqual([]);
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs);
    expect(calls).toEqual(['GET /api/user.php']);
    // Unsubscribed: back to every 60 s from then.
    await act(() => setPushSubscribed(false));
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs + POLL.intervalMs);
    expect(calls).toHaveLength(2);
  });

  it('is not push-subscribed until push exists: every 60 s', async () => {
    const clock = useFakeClock();
    const { result } = renderHook(() => usePushSubscribed());
    expect(result.current).toBe(false);
    await renderAppHook(() => useUser(), { user: userFixture() });
    const calls = recordCalls();
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(calls).toEqual(['GET /api/user.php']);
  });
});
