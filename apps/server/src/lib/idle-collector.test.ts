import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIdleCollector } from './idle-collector';

describe('startIdleCollector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once after start-up and once after each quiet spell that followed requests', () => {
    const collect = vi.fn();
    const collector = startIdleCollector({ collect, quietMs: 10_000, checkEveryMs: 1_000, now: Date.now });
    vi.advanceTimersByTime(9_000);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // Quiet goes on: nothing new to collect.
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    collector.stop();
  });

  it('never collects while requests keep coming, and does once they stop', () => {
    const collect = vi.fn();
    const collector = startIdleCollector({ collect, quietMs: 10_000, checkEveryMs: 1_000, now: Date.now });
    for (let i = 0; i < 30; i++) {
      vi.advanceTimersByTime(2_000);
      collector.touch();
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(11_000);
    expect(collect).toHaveBeenCalledTimes(1);
    collector.stop();
  });

  it('does nothing when Node does not expose the collector', () => {
    const collector = startIdleCollector({ collect: undefined, quietMs: 10, checkEveryMs: 1 });
    expect(() => {
      collector.touch();
      vi.advanceTimersByTime(100);
      collector.stop();
    }).not.toThrow();
  });
});
