import { POLL } from '@amora/contracts/core';
import { describe, expect, it } from 'vitest';
import { runPushSubscribed } from '@/testing/browser';
import { userFixture } from '@/testing/fixtures';
import { renderAppHook } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { useFakeClock } from '@/testing/timers';
import { useChats } from './chats';

/** Polling of spec §9: the chats like the user and likes, from 5 s after load, every 60 s (300 s when push-subscribed). */
describe('useChats polling', () => {
  const chatsCalls = (calls: string[]) => calls.filter((call) => call === 'GET /api/chats.php').length;

  it('loads the chats at once, then from 5 s after load every 60 s, and shows what they answer', async () => {
    const clock = useFakeClock();
    const calls = recordCalls();
    const { result } = await renderAppHook(() => useChats(), { user: userFixture() });
    await clock.at(0);
    expect(chatsCalls(calls)).toBe(1);
    server.use(answers.chats({ chats: [], num_unread_messages: 4 }));
    await clock.at(POLL.startDelayMs + POLL.intervalMs - 1);
    expect(chatsCalls(calls)).toBe(1);
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(chatsCalls(calls)).toBe(2);
    expect(result.current.data?.num_unread_messages).toBe(4);
    await clock.at(POLL.startDelayMs + 3 * POLL.intervalMs);
    expect(chatsCalls(calls)).toBe(4);
  });

  it('polls every 300 s instead while the member is push-subscribed', async () => {
    const clock = useFakeClock();
    runPushSubscribed();
    const calls = recordCalls();
    await renderAppHook(() => useChats(), { user: userFixture() });
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs - 1);
    expect(chatsCalls(calls)).toBe(1);
    await clock.at(POLL.startDelayMs + POLL.pushIntervalMs);
    expect(chatsCalls(calls)).toBe(2);
  });

  it('never asks for a visitor', async () => {
    const clock = useFakeClock();
    const calls = recordCalls();
    await renderAppHook(() => useChats(), { user: null });
    await clock.at(POLL.startDelayMs + 2 * POLL.intervalMs);
    expect(chatsCalls(calls)).toBe(0);
  });
});
