import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenFirstScreenShown } from './first-screen';

type Entry = { element: Element | null; size: number };

/** A window whose load event and largest paints the test gives, with the browser's timers (faked). */
function fakeWindow({ loaded = false, lcpSupported = true } = {}) {
  const loadListeners: (() => void)[] = [];
  const observers: { callback: (list: { getEntries: () => Entry[] }) => void; disconnected: boolean }[] = [];
  const buffered: Entry[] = [];
  class FakeObserver {
    static supportedEntryTypes = lcpSupported ? ['largest-contentful-paint'] : [];
    private readonly record: (typeof observers)[number];
    constructor(callback: (list: { getEntries: () => Entry[] }) => void) {
      this.record = { callback, disconnected: false };
      observers.push(this.record);
    }
    observe() {
      if (buffered.length > 0) {
        const entries = [...buffered];
        queueMicrotask(() => this.record.callback({ getEntries: () => entries }));
      }
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  /** Reports an element's part on the 390×844 screen once, after the current task (as a browser does after a frame). */
  class FakeIntersectionObserver {
    constructor(private readonly callback: (entries: { intersectionRect: { width: number; height: number } }[]) => void) {}
    observe(element: Element) {
      const box = element.getBoundingClientRect();
      const width = Math.max(0, Math.min(box.right, 390) - Math.max(box.left, 0));
      const height = Math.max(0, Math.min(box.bottom, 844) - Math.max(box.top, 0));
      queueMicrotask(() => this.callback([{ intersectionRect: { width, height } }]));
    }
    disconnect() {}
  }
  const win = {
    document: { readyState: loaded ? 'complete' : 'loading' },
    PerformanceObserver: FakeObserver,
    IntersectionObserver: FakeIntersectionObserver,
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') loadListeners.push(listener);
    },
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (id: number) => clearTimeout(id),
  };
  return {
    win: win as unknown as Window & typeof globalThis,
    load: () => {
      for (const listener of loadListeners) listener();
    },
    /** A largest paint reported before the observer was made (buffered). */
    paintedBefore: (entry: Entry) => buffered.push(entry),
    paint: (entry: Entry) => {
      for (const o of observers) if (!o.disconnected) o.callback({ getEntries: () => [entry] });
    },
  };
}

function hero(box = { left: 100, top: 60, right: 260, bottom: 260 }) {
  const img = document.createElement('img');
  img.getBoundingClientRect = () => ({ ...box, width: box.right - box.left, height: box.bottom - box.top }) as DOMRect;
  return img;
}

describe('whenFirstScreenShown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the load event and then for the main photo to be painted', () => {
    const page = fakeWindow();
    const photo = hero();
    const then = vi.fn();
    whenFirstScreenShown(then, photo, { win: page.win });
    page.paint({ element: document.createElement('h1'), size: 5_000 });
    expect(then).not.toHaveBeenCalled();
    page.load();
    page.paint({ element: document.createElement('h1'), size: 5_000 });
    expect(then).not.toHaveBeenCalled();
    page.paint({ element: photo, size: 30_000 });
    expect(then).toHaveBeenCalledTimes(1);
    page.paint({ element: photo, size: 30_000 });
    vi.advanceTimersByTime(10_000);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('starts at once when the photo was painted before the load event', async () => {
    const page = fakeWindow();
    const photo = hero();
    page.paintedBefore({ element: photo, size: 30_000 });
    const then = vi.fn();
    whenFirstScreenShown(then, photo, { win: page.win });
    page.load();
    await Promise.resolve();
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('starts when something larger than the photo was painted (the photo will not be the largest paint)', async () => {
    const page = fakeWindow({ loaded: true });
    const photo = hero({ left: 0, top: 700, right: 100, bottom: 900 });
    page.paintedBefore({ element: document.createElement('h1'), size: 20_000 });
    const then = vi.fn();
    whenFirstScreenShown(then, photo, { win: page.win });
    await Promise.resolve();
    await Promise.resolve();
    expect(then).toHaveBeenCalledTimes(1);
  });

  it("does not start on a smaller paint, whichever of the paint and the photo's area is known first", async () => {
    const page = fakeWindow({ loaded: true });
    const photo = hero();
    page.paintedBefore({ element: document.createElement('h1'), size: 20_000 });
    const then = vi.fn();
    whenFirstScreenShown(then, photo, { win: page.win });
    await Promise.resolve();
    await Promise.resolve();
    page.paint({ element: document.createElement('p'), size: 31_000 });
    expect(then).not.toHaveBeenCalled();
    page.paint({ element: document.createElement('p'), size: 32_000 });
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('starts after the waits when the browser reports no largest paint', () => {
    const page = fakeWindow();
    const then = vi.fn();
    whenFirstScreenShown(then, hero(), { win: page.win, loadTimeoutMs: 4_000, paintTimeoutMs: 1_500 });
    vi.advanceTimersByTime(4_000);
    expect(then).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_500);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('starts right after the load event without a main photo or without largest paints', () => {
    for (const [photo, lcpSupported] of [
      [null, true],
      [hero(), false],
    ] as const) {
      const page = fakeWindow({ lcpSupported });
      const then = vi.fn();
      whenFirstScreenShown(then, photo, { win: page.win });
      expect(then).not.toHaveBeenCalled();
      page.load();
      expect(then).toHaveBeenCalledTimes(1);
    }
  });
});
