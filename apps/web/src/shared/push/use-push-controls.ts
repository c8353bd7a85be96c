import { useCallback, useState } from 'react';
import { useSettings } from '@/shared/site/api/get-settings';
import { disablePush, enablePush, type PushState, usePushState } from './push';

export interface PushControls {
  /** The state of spec §4 in this browser (see PushState). */
  state: PushState;
  /** Asks the browser's permission and subscribes; call it from a click. */
  enable: () => Promise<void>;
  /** Ends this browser's subscription. */
  disable: () => Promise<void>;
  /** A change is under way. */
  isBusy: boolean;
  /** The last change failed (the server or the browser refused it). */
  hasFailed: boolean;
}

/** Push on and off for a button: the state, and the two changes with the site's key (the push alert, the notifications page). */
export function usePushControls(): PushControls {
  const state = usePushState();
  const publicKey = useSettings().push_public_key;
  const [isBusy, setIsBusy] = useState(false);
  const [hasFailed, setHasFailed] = useState(false);
  const run = useCallback(async (change: () => Promise<unknown>) => {
    setIsBusy(true);
    setHasFailed(false);
    try {
      await change();
    } catch {
      setHasFailed(true);
    } finally {
      setIsBusy(false);
    }
  }, []);
  return {
    state,
    enable: useCallback(() => run(() => enablePush(publicKey)), [run, publicKey]),
    disable: useCallback(() => run(disablePush), [run]),
    isBusy,
    hasFailed,
  };
}
