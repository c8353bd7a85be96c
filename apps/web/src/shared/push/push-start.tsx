import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { onPushMessage, startPush } from './push';

/**
 * A member's page in the background: at the app's start the push worker is registered and the subscription sent
 * again (push.ts startPush); a push or a click on one reloads what the page shows of the member (the user with its
 * counts, chats, likes), without waiting for the next poll. Renders nothing.
 */
export function PushStart() {
  const userId = useUser()?.id ?? null;
  const publicKey = useSettings().push_public_key;
  const queryClient = useQueryClient();

  useEffect(() => {
    if (userId !== null) void startPush(publicKey);
  }, [userId, publicKey]);

  useEffect(
    () => onPushMessage(() => void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'settings' })),
    [queryClient],
  );
  return null;
}
