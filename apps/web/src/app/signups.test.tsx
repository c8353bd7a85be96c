import { type MemberResponse, memberResponseSchema } from '@amora/contracts';
import { ENTRY_WARNING_STORAGE_KEY } from '@amora/contracts/core';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { settingsFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

/**
 * Spec §6: a visitor can sign up when `signups` is 'all', or 'with_trafficsource' and they came with a traffic
 * source. The pages show what the site allows before any form: no signup button when it is closed, and a
 * signup modal or page that says so and leads to login.
 */

const closed = settingsFixture({ signups: 'with_trafficsource', is_trafficsource: false });

const memberAnswer = (photos: MemberResponse['profile']['photos'] = [], hidden = 0) =>
  http.get('*/api/member.php', () =>
    contractJson(memberResponseSchema, {
      profile: {
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
        photos,
        hidden_photo_count: hidden,
        is_blocked_by_me: false,
        is_own: false,
      },
      related: [],
    }),
  );

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
});

describe('signups closed to this visitor', () => {
  it.each([
    ['with_trafficsource without a traffic source', closed],
    ['any other value', settingsFixture({ signups: 'none', is_trafficsource: true })],
  ])('%s: the index offers login, not "Sign up for free", and says signing up is closed', async (_, settings) => {
    await renderApp('/', { settings });
    const logins = await screen.findAllByRole('link', { name: text('home.ctaLogin') });
    for (const login of logins) expect(login).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: text('home.ctaSignup') })).toBeNull();
    expect(screen.getByTestId('signups-closed')).toHaveTextContent(text('signup.closed', { site: 'Amora' }));
  });

  it('the lander offers login instead of signup', async () => {
    await renderApp('/landers/video', { settings: closed });
    const logins = await screen.findAllByRole('link', { name: text('home.ctaLogin') });
    for (const login of logins) expect(login).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: text('home.ctaSignup') })).toBeNull();
  });

  it('the member page asks to log in for more photos, without a signup link', async () => {
    server.use(memberAnswer([], 3));
    await renderApp('/members/5', { settings: closed });
    const alert = await screen.findByTestId('login-for-photos');
    expect(within(alert).getByRole('link', { name: text('nav.login') })).toBeVisible();
    expect(within(alert).queryByRole('button', { name: text('home.ctaSignup') })).toBeNull();
  });

  it('the signup modal (a visitor liking someone) says signing up is closed and leads to login, with no form', async () => {
    server.use(memberAnswer());
    const { user, router } = await renderApp('/members/5', { settings: closed });
    await user.click(await screen.findByTestId('like-button'));
    const dialog = await screen.findByRole('dialog', { name: text('signup.closedTitle') });
    expect(within(dialog).getByTestId('signups-closed')).toHaveTextContent(text('signup.closed', { site: 'Amora' }));
    expect(within(dialog).queryByTestId('signup-form')).toBeNull();
    await user.click(within(dialog).getByRole('link', { name: text('nav.login') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('dialog', { name: text('signup.closedTitle') })).toBeNull();
  });

  it('the signup page (phones) says the same', async () => {
    await renderApp('/de/signup', { settings: closed });
    expect(await screen.findByRole('heading', { level: 1, name: 'Registrierung geschlossen' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Einloggen' })).toHaveAttribute('href', '/de/login');
    expect(screen.queryByTestId('signup-form')).toBeNull();
  });
});

describe('signups open', () => {
  it.each([
    ['all', settingsFixture({ signups: 'all' })],
    ['with_trafficsource with a traffic source', settingsFixture({ signups: 'with_trafficsource', is_trafficsource: true })],
  ])('%s: the index offers "Sign up for free" and the modal has the form', async (_, settings) => {
    const { user } = await renderApp('/', { settings });
    await user.click(await screen.findByRole('button', { name: text('home.ctaSignup') }));
    const dialog = await screen.findByRole('dialog', { name: text('signup.title', { site: 'Amora' }) });
    expect(await within(dialog).findByTestId('signup-form')).toBeVisible();
    expect(screen.queryByTestId('signups-closed')).toBeNull();
  });
});
