import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAsInstalledApp } from '@/testing/browser';
import { renderAppHook } from '@/testing/render';
import { useIsInstalledApp } from './installed-app';

/** A `(display-mode: standalone)` list whose answer the test changes, as the browser does when the app opens in its window. */
function standaloneQuery(initial: boolean) {
  const list = Object.assign(new EventTarget(), {
    matches: initial,
    media: '(display-mode: standalone)',
    onchange: null,
  }) as unknown as MediaQueryList;
  const matchMedia = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => (query === list.media ? list : matchMedia(query)));
  return {
    set(matches: boolean) {
      Object.assign(list, { matches });
      list.dispatchEvent(new Event('change'));
    },
  };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'standalone');
});

describe('useIsInstalledApp (spec §2 installed-app mode)', () => {
  it('is false in a browser tab', async () => {
    const { result } = await renderAppHook(() => useIsInstalledApp());
    expect(result.current).toBe(false);
  });

  it('is true when the page runs in the installed app’s own window (display-mode: standalone)', async () => {
    runAsInstalledApp();
    const { result } = await renderAppHook(() => useIsInstalledApp());
    expect(result.current).toBe(true);
  });

  it('is true on iOS, whose home-screen apps say so by navigator.standalone', async () => {
    Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
    const { result } = await renderAppHook(() => useIsInstalledApp());
    expect(result.current).toBe(true);
  });

  it('follows the display mode when it changes (the page moved into the app window and back)', async () => {
    const query = standaloneQuery(false);
    const { result } = await renderAppHook(() => useIsInstalledApp());
    expect(result.current).toBe(false);
    act(() => query.set(true));
    expect(result.current).toBe(true);
    act(() => query.set(false));
    expect(result.current).toBe(false);
  });
});
