import { useSyncExternalStore } from 'react';

/**
 * Seconds left until an end time, for every component that shows it: one timer per end time however many show
 * it, and no drift, since each tick computes what is left from the end time and the clock (a late tick shows
 * the right value, not one second less than the last). Ticks fall on the whole seconds before the end.
 */
interface Ticker {
  listeners: Set<() => void>;
  timer: number | null;
  value: number;
}

const tickers = new Map<number, Ticker>();

export function secondsUntil(endsAt: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

function schedule(endsAt: number, ticker: Ticker) {
  const left = endsAt - Date.now();
  if (left <= 0) {
    ticker.timer = null;
    return;
  }
  // The next whole second before the end (at least a millisecond away, so a tick never repeats itself).
  const delay = left % 1000 || 1000;
  ticker.timer = window.setTimeout(() => {
    ticker.value = secondsUntil(endsAt);
    for (const listener of ticker.listeners) listener();
    schedule(endsAt, ticker);
  }, delay);
}

function subscribe(endsAt: number, listener: () => void): () => void {
  let ticker = tickers.get(endsAt);
  if (!ticker) {
    ticker = { listeners: new Set(), timer: null, value: secondsUntil(endsAt) };
    tickers.set(endsAt, ticker);
  }
  ticker.listeners.add(listener);
  if (ticker.timer === null) {
    ticker.value = secondsUntil(endsAt);
    schedule(endsAt, ticker);
  }
  const own = ticker;
  return () => {
    own.listeners.delete(listener);
    if (own.listeners.size > 0) return;
    if (own.timer !== null) window.clearTimeout(own.timer);
    tickers.delete(endsAt);
  };
}

/** Whole seconds left until `endsAt` (ms since the epoch), updated every second; 0 from the end on. */
export function useSecondsLeft(endsAt: number): number {
  return useSyncExternalStore(
    (listener) => subscribe(endsAt, listener),
    () => tickers.get(endsAt)?.value ?? secondsUntil(endsAt),
    // On the server (a member's page it renders): the seconds left at that moment.
    () => secondsUntil(endsAt),
  );
}

/** 14399 → "03:59:59" (spec §4: hh:mm:ss). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
