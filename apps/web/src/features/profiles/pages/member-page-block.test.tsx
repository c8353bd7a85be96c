import { type MemberResponse, memberResponseSchema, okResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { runOnPhone } from '@/testing/browser';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

/** member.php for Noa, blocked by me or not as the server has it now. */
function noa(state: { isBlocked: boolean }) {
  const profile: MemberResponse['profile'] = {
    id: 5,
    name: 'Noa',
    age: 31,
    city: 'Utrecht',
    country: 'NL',
    is_fictional: false,
    is_premium: false,
    region: null,
    about: '',
    attributes: {},
    interests: [],
    photos: [{ id: 50, is_locked: false, url: '/photos/50.webp', thumb_url: '/photos/50-thumb.webp' }],
    hidden_photo_count: 0,
    is_blocked_by_me: false,
    is_own: false,
  };
  server.use(
    http.get('*/api/member.php', () =>
      contractJson(memberResponseSchema, { profile: { ...profile, is_blocked_by_me: state.isBlocked }, related: [] }),
    ),
    http.post('*/api/block.php', () => {
      state.isBlocked = true;
      return contractJson(okResponseSchema, { ok: true });
    }),
    http.delete('*/api/block.php', () => {
      state.isBlocked = false;
      return contractJson(okResponseSchema, { ok: true });
    }),
  );
}

describe('member page actions', () => {
  it('block asks first: Cancel changes nothing; confirmed, it blocks and says so; unblock needs no question', async () => {
    noa({ isBlocked: false });
    const calls = recordCalls();
    const { user } = await renderApp('/members/5', { user: userFixture() });
    const block = await screen.findByTestId('block-toggle');

    await user.click(block);
    const question = await screen.findByRole('dialog', { name: text('member.blockTitle', { name: 'Noa' }) });
    expect(question).toHaveTextContent(text('member.blockText', { name: 'Noa' }));
    await user.click(within(question).getByRole('button', { name: text('common.cancel') }));
    expect(calls.filter((c) => c.includes('block.php'))).toEqual([]);

    await user.click(block);
    const again = await screen.findByRole('dialog', { name: text('member.blockTitle', { name: 'Noa' }) });
    await user.click(within(again).getByRole('button', { name: text('member.block') }));
    expect(await screen.findByText(text('member.blockDone', { name: 'Noa' }))).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('block-toggle')).toHaveTextContent(text('member.unblock')));
    expect(calls).toContain('POST /api/block.php');

    await user.click(screen.getByTestId('block-toggle'));
    expect(await screen.findByText(text('member.unblockDone', { name: 'Noa' }))).toBeVisible();
    expect(calls).toContain('DELETE /api/block.php');
    await waitFor(() => expect(screen.getByTestId('block-toggle')).toHaveTextContent(text('member.block')));
  });

  it('on a phone the actions are one bar after the profile, above the tab bar; Block stands with Report below the details', async () => {
    runOnPhone();
    noa({ isBlocked: false });
    await renderApp('/members/5', { user: userFixture() });
    const bar = await screen.findByRole('group', { name: text('member.actions') });
    expect(bar).toHaveClass('profile-actions', 'is-above-tabs');
    expect(within(bar).getByTestId('like-button')).toBeVisible();
    // Like, Message and Gift fill a phone's width: Block is not in the bar, but below the details.
    expect(within(bar).queryByTestId('block-toggle')).toBeNull();
    expect(screen.getByTestId('block-toggle')).toBeVisible();
    expect(screen.getAllByRole('group', { name: text('member.actions') })).toHaveLength(1);
  });
});
