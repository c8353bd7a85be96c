/** The part of a `largest-contentful-paint` entry read here. */
interface LargestPaint {
  element: Element | null;
  size: number;
}

interface FirstScreenOptions {
  /** The longest wait for the load event (a photo that never comes). */
  loadTimeoutMs?: number;
  /** The longest wait after the load event for the first screen's largest paint to be reported. */
  paintTimeoutMs?: number;
  win?: Window & typeof globalThis;
}

/**
 * Calls `then` once a server-rendered page's first screen is on the screen: after the load event (its styles and
 * photos are in) and once the browser has reported its largest paint: the page's main photo (`hero`, the image
 * fetched with high priority) or something larger than it. Code fetched before that shares a phone's line and
 * processor with the first screen and holds it back; a lab's measure (Lighthouse) then counts that code into the
 * first paint. At most `loadTimeoutMs` plus `paintTimeoutMs` (the browser reports no largest paint after an input,
 * nor in a hidden tab, nor at all in some browsers: then right after the load event).
 */
export function whenFirstScreenShown(then: () => void, hero: Element | null, options: FirstScreenOptions = {}): void {
  const { loadTimeoutMs = 4_000, paintTimeoutMs = 1_500, win = window } = options;
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    then();
  };
  const afterLoad = () => {
    const Observer = win.PerformanceObserver;
    if (!hero || !Observer?.supportedEntryTypes?.includes('largest-contentful-paint')) {
      once();
      return;
    }
    // The hero's area on the first screen, as an intersection observer reports it after a frame's layout (reading
    // its box here would force a layout into this task, which a phone then runs as one long task): a largest paint
    // of that size or more is the hero or outshines it.
    let heroArea: number | null = null;
    let largest: LargestPaint | null = null;
    let observer: PerformanceObserver | null = null;
    let visibility: IntersectionObserver | null = null;
    const timer = win.setTimeout(() => finish(), paintTimeoutMs);
    const finish = () => {
      observer?.disconnect();
      visibility?.disconnect();
      win.clearTimeout(timer);
      once();
    };
    const check = () => {
      if (largest && (largest.element === hero || (heroArea !== null && largest.size >= heroArea))) finish();
    };
    if (win.IntersectionObserver) {
      visibility = new win.IntersectionObserver((entries) => {
        const seen = entries[entries.length - 1]?.intersectionRect;
        if (seen) heroArea = seen.width * seen.height;
        check();
      });
      visibility.observe(hero);
    }
    observer = new Observer((list) => {
      const entries = list.getEntries() as unknown as LargestPaint[];
      largest = entries[entries.length - 1] ?? largest;
      check();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  };
  if (win.document.readyState === 'complete') {
    afterLoad();
    return;
  }
  let loaded = false;
  const onLoad = () => {
    if (loaded) return;
    loaded = true;
    afterLoad();
  };
  win.addEventListener('load', onLoad, { once: true });
  win.setTimeout(onLoad, loadTimeoutMs);
}
