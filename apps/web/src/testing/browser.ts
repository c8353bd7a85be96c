import { vi } from 'vitest';

/** Installed-app mode (spec §2): the page runs as an installed PWA, so `(display-mode: standalone)` matches. */
export function runAsInstalledApp(): void {
  const matchMedia = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    if (query !== '(display-mode: standalone)') return matchMedia(query);
    const list = new EventTarget() as MediaQueryList;
    return Object.assign(list, { matches: true, media: query, onchange: null, addListener() {}, removeListener() {} });
  });
}
