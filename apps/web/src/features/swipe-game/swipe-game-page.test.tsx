import { swipeGameResponseSchema } from '@amora/contracts';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { resetMoment } from '@/lib/format-time';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

describe('swipe game: the likes of the day used up', () => {
  it('says when new likes come as a sentence says it ("tomorrow at 01:00"), never "at Sunday 00:00"', async () => {
    // The end of the UTC day, as the server answers it.
    const now = new Date();
    const resetAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
    server.use(
      http.get('*/api/swipe-game.php', () => contractJson(swipeGameResponseSchema, { cards: [], likes_left: 0, likes_reset_at: resetAt })),
    );
    await renderApp('/swipe-game', { user: userFixture() });
    const limit = await screen.findByTestId('swipe-limit');
    const moment = resetMoment(resetAt, 'en');
    expect(moment).not.toBeNull();
    const when =
      moment?.when === 'today'
        ? text('swipe.newLikesToday', { time: moment.time })
        : text('swipe.newLikesTomorrow', { time: moment?.time });
    expect(limit).toHaveTextContent(`${text('swipe.limit', { count: 4 })} ${when}`);
    expect(limit.textContent).not.toMatch(/at (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day/);
  });
});
