import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setSessionEndingHere, useUser } from '@/shared/session/user';
import { userFixture } from '@/testing/fixtures';
import { renderAppHook } from '@/testing/render';
import { answers, live, recordCalls, server } from '@/testing/server';
import { useLiveSocket } from './live-socket';

/** The live channel: says ready, then closes with the code given once `close` is called. */
function closingChannel() {
  let closeWith: ((code: number) => void) | null = null;
  server.use(
    live.addEventListener('connection', ({ client }) => {
      client.send(JSON.stringify({ type: 'ready' }));
      closeWith = (code) => client.close(code, 'session ended');
    }),
  );
  return {
    close: async (code: number) => {
      await waitFor(() => expect(closeWith).not.toBeNull());
      closeWith?.(code);
    },
  };
}

/** A page of a member: the member's query and the live channel. */
function useMemberPage() {
  useUser();
  useLiveSocket(true);
}

afterEach(() => setSessionEndingHere(false));

describe('the live channel closed because the session ended (4401)', () => {
  it('asks for the member again at once, so the page shows them logged out now', async () => {
    const channel = closingChannel();
    await renderAppHook(useMemberPage, { user: userFixture() });
    const calls = recordCalls();
    server.use(answers.user(null));
    await channel.close(4401);
    await waitFor(() => expect(calls).toContain('GET /api/user.php'));
  });

  it("does not when this page's own call ended it (a deletion or logout): that call's answer decides where it goes", async () => {
    const channel = closingChannel();
    await renderAppHook(useMemberPage, { user: userFixture() });
    const calls = recordCalls();
    // The deletion answered and its page is loading when the closing arrives.
    setSessionEndingHere(true);
    await channel.close(4401);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).not.toContain('GET /api/user.php');
  });
});
