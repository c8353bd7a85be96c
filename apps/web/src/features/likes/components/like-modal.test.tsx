import { ENTRY_WARNING_STORAGE_KEY } from '@amora/contracts/core';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { likesFixture, settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { text } from '@/testing/text';

/** The like modal of spec §2 (`?t=` seconds, spec §9), for visitors as well as members (decisions: like modal). */

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
});

describe('like modal for a visitor who came with ?t=', () => {
  it('opens after t seconds with its view-profile button, which opens signup', async () => {
    const { user } = await renderApp('/?t=3');
    await screen.findByRole('button', { name: text('home.ctaSignup') });
    expect(screen.queryByTestId('like-modal')).toBeNull();
    const modal = await screen.findByRole('dialog', { name: text('likes.likeModal.title') });
    await user.click(within(modal).getByRole('button', { name: text('likes.likeModal.viewProfile') }));
    expect(screen.queryByTestId('like-modal')).toBeNull();
    const signup = await screen.findByRole('dialog', { name: text('signup.title', { site: 'Amora' }) });
    expect(await within(signup).findByTestId('signup-form')).toBeVisible();
  });

  it('leads to a signup modal that says signing up is closed when it is closed to this visitor', async () => {
    const { user } = await renderApp('/?t=0', { settings: settingsFixture({ signups: 'with_trafficsource', is_trafficsource: false }) });
    const modal = await screen.findByRole('dialog', { name: text('likes.likeModal.title') });
    await user.click(within(modal).getByRole('button', { name: text('likes.likeModal.viewProfile') }));
    expect(await screen.findByRole('dialog', { name: text('signup.closedTitle') })).toBeVisible();
  });

  it('does not open without t', async () => {
    await renderApp('/');
    await screen.findByRole('button', { name: text('home.ctaSignup') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('like-modal')).toBeNull();
  });
});

describe('like modal for a member', () => {
  it('leads to the newest like', async () => {
    const noa = { id: 5, name: 'Noa', age: 31, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };
    await renderApp('/likes?t=0', {
      user: userFixture(),
      likes: likesFixture({ liked_by: [{ ...noa, is_match: false, like_new: true }], new_likes: 1 }),
    });
    const modal = await screen.findByRole('dialog', { name: text('likes.likeModal.title') });
    expect(within(modal).getByRole('link', { name: text('likes.likeModal.viewProfile') })).toHaveAttribute('href', '/likes/m/5');
  });
});
