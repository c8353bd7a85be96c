import type { CDPSession, Page, Worker } from '@playwright/test';
import { answerEntryWarning, appReady, expect, logInAsDemo, test } from './fixtures';

/**
 * The push service worker (spec §7 /sw-push.js) in Chromium. A browser under test has no push service to
 * subscribe with, so the push comes from the DevTools protocol (ServiceWorker.deliverPushMessage: a real push
 * event, as a push service's message makes one), and the click on the notification is dispatched in the worker
 * (a browser under test shows no notification to click). The sending side is tested against a local receiver
 * that decrypts (apps/server/src/modules/push).
 */

interface Posted {
  type: string;
  [key: string]: unknown;
}

/** Collects what the service worker posts to the page, from now on. */
async function recordWorkerMessages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const store = window as unknown as { pushMessages: unknown[] };
    store.pushMessages = [];
    navigator.serviceWorker.addEventListener('message', (event) => store.pushMessages.push(event.data));
  });
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { pushMessages: Posted[] }).pushMessages);

/** The registration id of the page's push worker, as the DevTools protocol names it. */
async function pushWorkerRegistration(cdp: CDPSession, origin: string): Promise<string> {
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)?.registrationId).toBeTruthy();
  return registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)?.registrationId as string;
}

async function pushWorker(page: Page): Promise<Worker> {
  const context = page.context();
  const found = context.serviceWorkers().find((worker) => worker.url().endsWith('/sw-push.js'));
  return found ?? context.waitForEvent('serviceworker', { predicate: (worker) => worker.url().endsWith('/sw-push.js') });
}

test.describe('push alert', () => {
  test('offers notifications on a member’s pages but not on the notifications page, and stays closed once closed', async ({
    browser,
  }, testInfo) => {
    // On a phone the banners take turns in one place (first-screen.spec.ts); what the alert does is the same.
    test.skip(testInfo.project.name === 'phone', 'the banners take turns on a phone');
    // A browser of its own: the tests' pages have the alert closed (fixtures.ts).
    const context = await browser.newContext();
    try {
      await answerEntryWarning(context, { withPushAlert: true });
      const page = await context.newPage();
      await logInAsDemo(page);
      await appReady(page);
      const alert = page.getByTestId('push-alert');
      await expect(alert).toBeVisible();
      await expect(alert).toHaveAccessibleName('Notifications');
      await expect(alert.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
      // Nothing asked of the browser before the click.
      expect(await page.evaluate(() => Notification.permission)).toBe('default');

      await page.goto('/notifications');
      await appReady(page);
      await expect(alert).toHaveCount(0);

      await page.goto('/likes');
      await appReady(page);
      await expect(alert).toBeVisible();
      await alert.getByRole('button', { name: 'Close' }).click();
      await expect(alert).toHaveCount(0);
      await page.reload();
      await appReady(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect(alert).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

test.describe('push service worker', () => {
  test('is served at the root as a script', async ({ request }) => {
    const res = await request.get('/sw-push.js');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/javascript/);
    expect(await res.text()).toContain('NEW_PUSH_MESSAGE');
  });

  test('a push becomes a notification and reaches the open page; a click on it is told to the page', async ({ page, baseURL }) => {
    const origin = new URL(baseURL as string).origin;
    await page.context().grantPermissions(['notifications'], { origin });
    await logInAsDemo(page);
    await appReady(page);
    // The member's app registered the worker at its start.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw-push\.js$/);
    await recordWorkerMessages(page);

    const cdp = await page.context().newCDPSession(page);
    const registrationId = await pushWorkerRegistration(cdp, origin);
    const checkUrl = `${origin}/chats`;
    const payload = {
      title: 'Amora',
      body: 'Anna sent you a message',
      icon: `${origin}/api/assets/app-icon/192.png`,
      tag: 'c42',
      data: { checkUrl, openUrl: checkUrl, badge: 3, event: 'message' },
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });

    await expect
      .poll(() => posted(page))
      .toEqual([
        {
          type: 'NEW_PUSH_MESSAGE',
          title: 'Amora',
          body: 'Anna sent you a message',
          tag: 'c42',
          checkUrl,
          openUrl: checkUrl,
          badge: 3,
          event: 'message',
        },
      ]);
    // The notification is up once its icon has loaded.
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
      });
    await expect.poll(shown).toEqual([{ title: 'Amora', body: 'Anna sent you a message', tag: 'c42', data: payload.data }]);

    // A second push of the same conversation replaces the notification shown.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId,
      data: JSON.stringify({ ...payload, body: 'Anna sent you a message', data: { ...payload.data, badge: 4 } }),
    });
    await expect.poll(async () => (await posted(page)).length).toBe(2);
    await expect.poll(async () => (await shown()).map((n) => n.data.badge)).toEqual([4]);

    // The click: the worker tells the pages which page it leads to.
    const worker = await pushWorker(page);
    await worker.evaluate(async () => {
      // The worker's global scope (a ServiceWorkerGlobalScope, whose types the pages' library does not have).
      const scope = self as unknown as EventTarget & {
        registration: { getNotifications(): Promise<unknown[]> };
        NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      try {
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
      } catch {
        // waitUntil refuses an event made here (not the browser's); the handler has run all the same
      }
    });
    await expect.poll(async () => (await posted(page)).at(-1)).toEqual({ type: 'NEW_PUSH_CLICK', checkUrl, openUrl: checkUrl });
    await expect.poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length)).toBe(0);
  });
});
