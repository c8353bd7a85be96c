import { matchFinderResponseSchema } from '@amora/contracts';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

describe('match-finder', () => {
  it('says that its likes have no daily limit, so the swipe game’s 4 a day do not read as its own', async () => {
    server.use(http.get('*/api/match-finder.php', () => contractJson(matchFinderResponseSchema, { profile: null })));
    await renderApp('/match-finder', { user: userFixture() });
    expect(await screen.findByTestId('match-finder-limit')).toHaveTextContent(text('matchFinder.noLimit'));
  });
});
