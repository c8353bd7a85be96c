// The push service worker (spec §7 /sw-push.js), registered by the app for members (src/shared/push/push.ts).
// Every push becomes a notification (the server's text: who, never what they wrote) and sets the app badge
// (unread messages and new likes); the open pages hear of it (NEW_PUSH_MESSAGE) and reload what they show. A click
// on a notification tells the pages (NEW_PUSH_CLICK, with checkUrl and openUrl) and focuses the tab that shows
// checkUrl, or opens openUrl. No fetch handler: nothing is cached, the pages come from the network as ever.

const PUSH_MESSAGE = 'NEW_PUSH_MESSAGE';
const PUSH_CLICK = 'NEW_PUSH_CLICK';

/** The push's JSON (contracts pushPayloadSchema), or a plain notice when it is not ours to read. */
function payloadOf(event) {
  try {
    const payload = event.data ? event.data.json() : null;
    if (payload && typeof payload.title === 'string') return payload;
  } catch {
    // not JSON: shown as text below
  }
  return { title: self.location.hostname, body: event.data ? event.data.text() : '', tag: 'push', data: {} };
}

function windows() {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true });
}

async function postToPages(message) {
  for (const client of await windows()) client.postMessage(message);
}

/** The app badge of spec §2: the count, or none at 0 (where the browser has one). */
async function setBadge(count) {
  const nav = self.navigator;
  try {
    if (typeof count !== 'number') return;
    if (count > 0 && nav.setAppBadge) await nav.setAppBadge(count);
    else if (count === 0 && nav.clearAppBadge) await nav.clearAppBadge();
  } catch {
    // the badge is a nicety: no permission, no badge
  }
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  const data = payload.data || {};
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(payload.title, {
        body: payload.body,
        icon: payload.icon,
        badge: payload.icon,
        // A newer notice of the same conversation replaces the one still shown, quietly: a burst of messages
        // alerts once.
        tag: payload.tag,
        data,
      }),
      setBadge(data.badge),
      postToPages({ type: PUSH_MESSAGE, title: payload.title, body: payload.body, tag: payload.tag, ...data }),
    ]),
  );
});

/** Whether the page at `url` shows `wanted` (same origin and path; a query or hash of its own does not matter). */
function shows(url, wanted) {
  try {
    const a = new URL(url);
    const b = new URL(wanted, self.location.origin);
    return a.origin === b.origin && a.pathname.replace(/\/$/, '') === b.pathname.replace(/\/$/, '');
  } catch {
    return false;
  }
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data || {};
  event.notification.close();
  const checkUrl = data.checkUrl || '/';
  const openUrl = data.openUrl || checkUrl;
  event.waitUntil(
    (async () => {
      await postToPages({ type: PUSH_CLICK, checkUrl, openUrl });
      const tab = (await windows()).find((client) => shows(client.url, checkUrl));
      if (tab && 'focus' in tab) {
        await tab.focus();
        return;
      }
      if (self.clients.openWindow) await self.clients.openWindow(openUrl);
    })(),
  );
});
