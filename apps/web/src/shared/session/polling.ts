import { POLL } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { usePushSubscribed } from '@/shared/push/push-subscription';

/** True from 5 s after the component mounted (with the shell, at load): polling starts then (spec §9). */
function usePollingStarted(): boolean {
  const [isPolling, setIsPolling] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setIsPolling(true), POLL.startDelayMs);
    return () => window.clearTimeout(id);
  }, []);
  return isPolling;
}

/**
 * The interval of spec §9 for the user, chats and likes: nothing for the first 5 s, then every 60 s, or every
 * 300 s while the member is subscribed to push (usePushSubscribed). `slower` (the chats while the live channel is
 * open, whose frames reload them) also takes the 300 s.
 */
export function usePollInterval({ slower = false }: { slower?: boolean } = {}): number | false {
  const isPolling = usePollingStarted();
  const isPushSubscribed = usePushSubscribed();
  if (!isPolling) return false;
  return isPushSubscribed || slower ? POLL.pushIntervalMs : POLL.intervalMs;
}
