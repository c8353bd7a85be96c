import { notifyManager } from '@tanstack/react-query';
import { onTestFinished, vi } from 'vitest';

/** Fake clocks for timers and Date only: promises, I/O and setImmediate stay real, so MSW still answers. */
export function useFakeClock(): { at: (msAfterStart: number) => Promise<void> } {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // TanStack Query hands its updates to components with setTimeout(0), which a fake clock would hold back.
  notifyManager.setScheduler(queueMicrotask);
  onTestFinished(() => {
    vi.useRealTimers();
    notifyManager.setScheduler((callback) => setTimeout(callback, 0));
  });
  const start = Date.now();
  return {
    /**
     * Moves the clock to `msAfterStart` a second at a time, and after each second lets the renders and
     * calls the timers started finish (React renders on a real macrotask, so a timer that changes state
     * takes effect at its own second, not at the end of a long jump).
     */
    async at(msAfterStart: number) {
      const target = start + msAfterStart;
      while (Date.now() < target) {
        await vi.advanceTimersByTimeAsync(Math.min(STEP_MS, target - Date.now()));
        await settle();
      }
      await settle();
    },
  };
}

const STEP_MS = 1_000;

/** Lets pending requests and the renders they cause finish (real macrotasks; the fake clock stands still). */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(0);
  }
}
