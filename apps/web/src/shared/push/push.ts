import { useSyncExternalStore } from 'react';
import { api } from '@/lib/api-client';
import { setPushSubscribed } from './push-subscription';

/**
 * Web Push in this browser (spec §3 push, §4 push states, §7 `/sw-push.js` and `POST /api/user.php?push=1`):
 * - `unknown`: not looked at yet (the server's render, the first moments of the app);
 * - `unsupported`: this browser cannot take pushes (not capable);
 * - `needs-install`: iPhone or iPad in Safari, which takes pushes only in an app added to the Home Screen;
 * - `unsubscribed`: capable, but no subscription (false);
 * - `subscribed`: a subscription the server has (sent again at every app start);
 * - `denied`: the member refused notifications to the site in the browser.
 */
export type PushState = 'unknown' | 'unsupported' | 'needs-install' | 'unsubscribed' | 'subscribed' | 'denied';

/** The service worker that shows the pushes; served at the site's root (apps/web/public/sw-push.js). */
const PUSH_WORKER_URL = '/sw-push.js';
/** What the service worker posts to the open pages: a push came, a notification was clicked. */
const PUSH_MESSAGE = 'NEW_PUSH_MESSAGE';
const PUSH_CLICK = 'NEW_PUSH_CLICK';

let state: PushState = 'unknown';
const listeners = new Set<() => void>();

function setState(next: PushState): PushState {
  if (next !== state) {
    state = next;
    for (const listener of listeners) listener();
  }
  setPushSubscribed(next === 'subscribed');
  return next;
}

/** The push state of this browser, kept up to date; `unknown` in the server's render. */
export function usePushState(): PushState {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => state,
    () => 'unknown' as const,
  );
}

/** An iPhone or iPad (iPadOS says it is a Mac with a touch screen). */
function isIos(): boolean {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
}

/** Running as an app added to the Home Screen (or installed). */
function isInstalled(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
}

function isCapable(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The state before any subscription is looked at: what the browser can do and what the member allowed. */
function capability(): PushState | null {
  if (!isCapable()) return isIos() && !isInstalled() ? 'needs-install' : 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : null;
}

async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(PUSH_WORKER_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Whether the subscription was made with the server's current key (one made with another gets nothing). */
function isForKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options?.applicationServerKey;
  if (!key) return true;
  const wanted = keyBytes(publicKey);
  const given = new Uint8Array(key);
  return given.length === wanted.length && given.every((byte, i) => byte === wanted[i]);
}

function sendSubscription(subscription: PushSubscription) {
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  return api('POST /api/user.php?push=1', { body: { subscription: { endpoint: json.endpoint, keys: json.keys } } });
}

/**
 * At every app start of a member: registers the service worker, reads the state, and sends the subscription
 * again (the server renews it; one made with an old server key is made again). Asks nothing of the member.
 */
export async function startPush(publicKey: string | null): Promise<PushState> {
  const limited = capability();
  if (limited === 'unsupported' || limited === 'needs-install') return setState(limited);
  try {
    const registration = await workerRegistration();
    let subscription = await registration.pushManager.getSubscription();
    if (limited) return setState(limited);
    if (!subscription || Notification.permission !== 'granted' || !publicKey) return setState('unsubscribed');
    if (!isForKey(subscription, publicKey)) {
      await subscription.unsubscribe();
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    }
    await sendSubscription(subscription);
    return setState('subscribed');
  } catch {
    return setState(state === 'unknown' ? 'unsubscribed' : state);
  }
}

/**
 * Turns push on: asks the browser's permission (call it from the member's click, never on load), subscribes with
 * the server's key and stores the subscription. Answers the state it led to; throws when the server did not
 * take it.
 */
export async function enablePush(publicKey: string | null): Promise<PushState> {
  const limited = capability();
  if (limited || !publicKey) return setState(limited ?? 'unsupported');
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return setState('denied');
  if (permission !== 'granted') return setState('unsubscribed');
  const registration = await workerRegistration();
  const existing = await registration.pushManager.getSubscription();
  if (existing && !isForKey(existing, publicKey)) await existing.unsubscribe();
  const subscription =
    existing && isForKey(existing, publicKey)
      ? existing
      : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  await sendSubscription(subscription);
  return setState('subscribed');
}

/** Turns push off in this browser: the subscription ends there and the server forgets it. */
export async function disablePush(): Promise<PushState> {
  if (!isCapable()) return setState(capability() ?? 'unsupported');
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    const { endpoint } = subscription;
    await subscription.unsubscribe();
    await api('POST /api/user.php?push=1', { body: { subscription: null, endpoint } });
  }
  return setState(capability() ?? 'unsubscribed');
}

/**
 * Logging out: the server forgets this browser's subscription for the member, so pushes for them stop here. The
 * browser keeps its subscription (the permission is the browser's): the next member to log in here sends it again
 * at the app's start (startPush) and gets their own pushes. Never throws.
 */
export async function forgetPushSubscription(): Promise<void> {
  try {
    if (!isCapable()) return;
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) await api('POST /api/user.php?push=1', { body: { subscription: null, endpoint: subscription.endpoint } });
  } catch {
    // Logging out goes on: the server drops a subscription it cannot deliver to, and prunes what is unseen.
  }
}

/** Listens to the service worker's messages to the page (a push came, a notification was clicked). */
export function onPushMessage(listener: (message: { type: string; [key: string]: unknown }) => void): () => void {
  if (!('serviceWorker' in navigator)) return () => {};
  const container = navigator.serviceWorker;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    if (data && (data.type === PUSH_MESSAGE || data.type === PUSH_CLICK)) listener(data as { type: string });
  };
  container.addEventListener('message', onMessage);
  return () => container.removeEventListener('message', onMessage);
}

/** Tests: back to the state of a fresh page. */
export function resetPushState(): void {
  setState('unknown');
}
