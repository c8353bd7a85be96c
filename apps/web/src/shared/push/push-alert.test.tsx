import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { act, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { resetPushState } from './push';
import { PushAlert } from './push-alert';
import { PushStart } from './push-start';
import { usePushSubscribed } from './push-subscription';

/** The server's VAPID public key as the settings carry it: 65 bytes, base64url. */
const PUBLIC_KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';

interface FakeBrowser {
  permission: NotificationPermission;
  subscribed: boolean;
  requestPermission: ReturnType<typeof vi.fn>;
  subscribe: ReturnType<typeof vi.fn>;
}

/**
 * The browser's push APIs (service worker container, PushManager, Notification) as a browser that can take
 * pushes has them; the test says what the member allowed and whether a subscription exists.
 */
function pushCapableBrowser({ permission = 'default', subscribed = false }: Partial<Pick<FakeBrowser, 'permission' | 'subscribed'>> = {}) {
  const browser: FakeBrowser = {
    permission,
    subscribed,
    requestPermission: vi.fn(async () => {
      browser.permission = 'granted';
      return 'granted';
    }),
    subscribe: vi.fn(async () => {
      browser.subscribed = true;
      return subscription;
    }),
  };
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: Uint8Array.from(Buffer.from(PUBLIC_KEY, 'base64url')).buffer },
    toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: PUBLIC_KEY, auth: 'c2VjcmV0LXNlY3JldC0xMg' } }),
    unsubscribe: vi.fn(async () => {
      browser.subscribed = false;
      return true;
    }),
  };
  const registration = {
    pushManager: { getSubscription: async () => (browser.subscribed ? subscription : null), subscribe: browser.subscribe },
  };
  const container = Object.assign(new EventTarget(), {
    register: vi.fn(async () => registration),
    ready: Promise.resolve(registration),
    getRegistration: async () => registration,
  });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal(
    'Notification',
    Object.assign(class {}, {
      get permission() {
        return browser.permission;
      },
      requestPermission: browser.requestPermission,
    }),
  );
  return { browser, container };
}

/** Safari on an iPhone, not added to the Home Screen: no push there. */
function iphoneSafari() {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  );
}

/** What the app sent to POST /api/user.php?push=1. */
function recordPushCalls() {
  const bodies: unknown[] = [];
  server.use(
    http.post('*/api/user.php', async ({ request }) => {
      if (new URL(request.url).searchParams.get('push') !== '1') return undefined;
      bodies.push(await request.json());
      return HttpResponse.json({ ok: true });
    }),
  );
  return bodies;
}

function Subscribed() {
  return <output data-testid="subscribed">{String(usePushSubscribed())}</output>;
}

const member = userFixture();
const settings = settingsFixture({ push_public_key: PUBLIC_KEY });

function renderAlert(routeName: RouteHandle['name'] = 'members', path = '/members') {
  return renderInRoute(
    <>
      <PushStart />
      <PushAlert />
      <Subscribed />
    </>,
    { path, routeName, user: member, settings },
  );
}

const alert = () => screen.queryByRole('region', { name: text('push.alert.label') });

beforeEach(() => resetPushState());
afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
});

describe('the push alert', () => {
  it('offers push where the browser can take it, and asks the permission only on the click', async () => {
    const { browser, container } = pushCapableBrowser();
    const sent = recordPushCalls();
    const { user } = await renderAlert();
    const shown = await screen.findByRole('region', { name: text('push.alert.label') });
    expect(shown).toHaveTextContent(text('push.alert.text'));
    expect(container.register).toHaveBeenCalledWith('/sw-push.js', { scope: '/' });
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: text('push.alert.button') }));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: expect.any(Uint8Array) });
    await waitFor(() => expect(alert()).toBeNull());
    expect(sent).toEqual([{ subscription: { endpoint: ENDPOINT, keys: { p256dh: PUBLIC_KEY, auth: 'c2VjcmV0LXNlY3JldC0xMg' } } }]);
    // Subscribed: the polling of spec §9 slows to 300 s.
    expect(screen.getByTestId('subscribed')).toHaveTextContent('true');
  });

  it('sends the subscription again at the app start and shows nothing when subscribed', async () => {
    pushCapableBrowser({ permission: 'granted', subscribed: true });
    const sent = recordPushCalls();
    await renderAlert();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ subscription: { endpoint: ENDPOINT } });
    await waitFor(() => expect(screen.getByTestId('subscribed')).toHaveTextContent('true'));
    expect(alert()).toBeNull();
  });

  it.each(['signup', 'notifications', 'activate-done', 'directdebit', 'premium'] as const)('is hidden on %s', async (route) => {
    pushCapableBrowser();
    await renderAlert(route, `/${route}`);
    // The start has looked at the browser (the worker is registered) and still nothing shows.
    await waitFor(() => expect(navigator.serviceWorker.register).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(alert()).toBeNull();
  });

  it('goes away for good when dismissed', async () => {
    pushCapableBrowser();
    const { user, unmount } = await renderAlert();
    await screen.findByRole('region', { name: text('push.alert.label') });
    await user.click(screen.getByRole('button', { name: text('common.close') }));
    expect(alert()).toBeNull();
    expect(window.localStorage.getItem(ALERT_STORAGE_KEYS.push)).toMatch(/^\d+$/);
    unmount();
    resetPushState();
    await renderAlert();
    await waitFor(() => expect(navigator.serviceWorker.register).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(alert()).toBeNull();
  });

  it('stays away when the member refused notifications in the browser', async () => {
    const { browser } = pushCapableBrowser({ permission: 'denied' });
    await renderAlert();
    await waitFor(() => expect(navigator.serviceWorker.register).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(alert()).toBeNull();
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('explains Add to Home Screen in Safari on an iPhone', async () => {
    iphoneSafari();
    await renderAlert();
    const shown = await screen.findByRole('region', { name: text('push.alert.label') });
    expect(shown).toHaveTextContent(text('push.alert.ios'));
    expect(screen.queryByRole('button', { name: text('push.alert.button') })).toBeNull();
  });

  it('shows nothing where the browser cannot take pushes at all', async () => {
    await renderAlert();
    await act(() => Promise.resolve());
    expect(alert()).toBeNull();
  });
});
