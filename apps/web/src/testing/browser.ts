import { onTestFinished, vi } from 'vitest';
import { setPushSubscribed } from '@/shared/push/push-subscription';

/** Installed-app mode (spec §2): the page runs as an installed PWA, so `(display-mode: standalone)` matches. */
export function runAsInstalledApp(): void {
  const matchMedia = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    if (query !== '(display-mode: standalone)') return matchMedia(query);
    const list = new EventTarget() as MediaQueryList;
    return Object.assign(list, { matches: true, media: query, onchange: null, addListener() {}, removeListener() {} });
  });
}

/** A phone-sized screen: the media queries below md (768 px) match, as on a 390 px wide phone. */
export function runOnPhone(): void {
  const matchMedia = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const maxWidth = /max-width:\s*([\d.]+)px/.exec(query);
    if (!maxWidth) return matchMedia(query);
    const list = new EventTarget() as MediaQueryList;
    return Object.assign(list, {
      matches: 390 <= Number(maxWidth[1]),
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
    });
  });
}

/** The member is subscribed to push in this browser (spec §3 push), for the rest of the test. */
export function runPushSubscribed(): void {
  setPushSubscribed(true);
  onTestFinished(() => setPushSubscribed(false));
}
