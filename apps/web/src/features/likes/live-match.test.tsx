import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, live, server } from '@/testing/server';
import { text } from '@/testing/text';

const noor = { id: 77, name: 'Noor', age: 31, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

/** The live channel: says ready, then the frames given; what the page sends back is collected. */
function liveChannel(frames: object[]) {
  const received: unknown[] = [];
  server.use(
    live.addEventListener('connection', ({ client }) => {
      client.addEventListener('message', (event) => received.push(JSON.parse(String(event.data))));
      client.send(JSON.stringify({ type: 'ready' }));
      for (const frame of frames) client.send(JSON.stringify(frame));
    }),
  );
  return received;
}

describe('a match on the live channel', () => {
  it('opens the match dialog for the one who liked first, with "Send a message" leading to the chat', async () => {
    server.use(answers.likes(likesFixture({ profiles: [{ ...noor, is_match: true }] })));
    liveChannel([{ type: 'match', profile: 77, liked_first: true }]);
    // The chat page it leads to (what it shows is the chat's tests').
    let partnerAsked = 0;
    server.use(
      http.get('*/api/member.php', () => {
        partnerAsked += 1;
        return HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 });
      }),
    );
    const { user, router, queryClient } = await renderApp('/pages/terms', { user: userFixture() });
    const modal = await screen.findByTestId('match-modal');
    expect(within(modal).getByRole('heading', { name: text('likes.matchModal.title') })).toBeVisible();
    expect(modal).toHaveTextContent(text('likes.matchModal.text', { name: 'Noor' }));
    await user.click(within(modal).getByTestId('match-send-message'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/members/77/chat'));
    // The chat page has asked for its partner and has its answers (not a request left for the next test).
    await waitFor(() => expect(partnerAsked).toBeGreaterThan(0));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('opens nothing for the one who liked back (they saw the match on their own like)', async () => {
    server.use(answers.likes(likesFixture({ profiles: [{ ...noor, is_match: true }] })));
    const received = liveChannel([{ type: 'match', profile: 77, liked_first: false }]);
    await renderApp('/pages/terms', { user: userFixture() });
    // The page says it is here (its presence), and nothing opens.
    await waitFor(() => expect(received).toContainEqual({ type: 'presence', visible: true }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('match-modal')).toBeNull();
  });
});
