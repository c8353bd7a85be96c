import { POLL } from '@amora/contracts/core';
import { describe, expect, it } from 'vitest';
import { runPushSubscribed } from '@/testing/browser';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderAppHook } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { useFakeClock } from '@/testing/timers';
import { useLikes } from './likes';

/** Polling of spec §9: likes like the user, from 5 s after load, every 60 s; members only. */
describe('useLikes polling', () => {
  const likesCalls = (calls: string[]) => calls.filter((call) => call === 'GET /api/likes.php').length;

  it('loads the likes at once, then again from 5 s after load every 60 s, and shows what they answer', async () => {
    const clock = useFakeClock();
    const calls = recordCalls();
    const { result } = await renderAppHook(() => useLikes(), { user: userFixture() });
    await clock.at(0);
    expect(calls).toEqual(['GET /api/settings.php', 'GET /api/user.php', 'GET /api/likes.php']);
    expect(result.current.data?.new_likes).toBe(0);

    server.use(answers.likes(likesFixture({ new_likes: 2 })));
    await clock.at(POLL.startDelayMs + POLL.intervalMs - 1);
    expect(likesCalls(calls)).toBe(1);
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(likesCalls(calls)).toBe(2);
    expect(result.current.data?.new_likes).toBe(2);
    await clock.at(POLL.startDelayMs + 2 * POLL.intervalMs - 1);
    expect(likesCalls(calls)).toBe(2);
    await clock.at(POLL.startDelayMs + 3 * POLL.intervalMs);
    expect(likesCalls(calls)).toBe(4);
  });

  it('never asks for a visitor', async () => {
    const clock = useFakeClock();
    const calls = recordCalls();
    const { result } = await renderAppHook(() => useLikes(), { user: null });
    await clock.at(POLL.startDelayMs + 5 * POLL.intervalMs);
    expect(calls).toEqual(['GET /api/settings.php', 'GET /api/user.php']);
    expect(result.current.data).toBeUndefined();
  });

  it('polls every 300 s instead while the member is push-subscribed', async () => {
    const clock = useFakeClock();
    runPushSubscribed();
    const calls = recordCalls();
    await renderAppHook(() => useLikes(), { user: userFixture() });
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs - 1);
    expect(likesCalls(calls)).toBe(1);
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs);
    expect(likesCalls(calls)).toBe(2);
    await clock.at(POLL.startDelayMs + 2 * POLL.pushIntervalMs);
    expect(likesCalls(calls)).toBe(3);
  });
});
