import { useSyncExternalStore } from 'react';

/**
 * Whether this browser holds a push subscription of the member (spec §3 push: isSubscribed): push.ts sets it with
 * the push state, and the polling of spec §9 slows to 300 s while it is true. The server knows nothing of it:
 * false in its render.
 */
let isSubscribed = false;
const listeners = new Set<() => void>();

export function setPushSubscribed(value: boolean): void {
  if (value === isSubscribed) return;
  isSubscribed = value;
  for (const listener of listeners) listener();
}

export function usePushSubscribed(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => isSubscribed,
    () => false,
  );
}
