import { ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatLayout } from '@/app/layouts/chat-layout';
import { DefaultLayout } from '@/app/layouts/default-layout';
import { runAsInstalledApp } from '@/testing/browser';
import { pressEscape } from '@/testing/dialog';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp, renderInRoute } from '@/testing/render';
import { text } from '@/testing/text';

/** The site-entry warning of spec §2 ("Important information"), in the real layouts. */
const warning = () => screen.queryByRole('dialog', { name: text('entryWarning.title') });
const findWarning = () => screen.findByRole('dialog', { name: text('entryWarning.title') });
/** The page rendered (not the error page), so a missing warning means hidden, not yet loading. */
const pageShown = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });
const termsShown = () => pageShown(text('terms.title', { ns: 'pages' }));
const landerShown = () => screen.findByTestId('lander-video', {}, { timeout: 5_000 });

describe('entry warning on the default layout (spec §2)', () => {
  it('is shown to a logged-out visitor who has not answered it, with its texts', async () => {
    await renderApp('/pages/terms');
    const dialog = await findWarning();
    expect(dialog).toHaveTextContent(text('entryWarning.adults', { site: 'Amora', minAge: MIN_AGE }));
    expect(dialog).toHaveTextContent(text('entryWarning.fictional', { plural: 'fictional profiles' }));
    expect(screen.getByRole('button', { name: text('entryWarning.enter', { minAge: MIN_AGE }) })).toBeInTheDocument();
  });

  it('is not shown to a logged-in member', async () => {
    await renderApp('/pages/terms', { user: userFixture() });
    await termsShown();
    expect(warning()).toBeNull();
  });

  it('is not shown in installed-app mode', async () => {
    runAsInstalledApp();
    await renderApp('/pages/terms');
    await termsShown();
    expect(warning()).toBeNull();
  });

  it("is not shown when the site's enable_site_entry_popup is 'no'", async () => {
    await renderApp('/pages/terms', { settings: settingsFixture({ enable_site_entry_popup: 'no' }) });
    await termsShown();
    expect(warning()).toBeNull();
  });

  it('is shown to visitors from any country, and to those whose country is unknown', async () => {
    await renderApp('/pages/terms', { settings: settingsFixture({ geoip_country: 'FR' }) });
    await findWarning();
  });

  it('is not shown once answered: entering stores the time and closes it, also after a reload', async () => {
    const first = await renderApp('/pages/terms', { settings: settingsFixture({ geoip_country: null }) });
    await findWarning();
    const before = Date.now();
    await first.user.click(screen.getByRole('button', { name: text('entryWarning.enter', { minAge: MIN_AGE }) }));
    expect(warning()).toBeNull();
    expect(Number(window.localStorage.getItem(ENTRY_WARNING_STORAGE_KEY))).toBeGreaterThanOrEqual(before);
    first.unmount();

    await renderApp('/pages/terms');
    await termsShown();
    expect(warning()).toBeNull();
  });

  it('cannot be closed by Escape or a click on its backdrop: the visitor enters or leaves', async () => {
    const { user } = await renderApp('/pages/terms');
    const dialog = await findWarning();
    await pressEscape();
    await user.click(dialog);
    expect(warning()).toBe(dialog);
    expect(dialog).toHaveAttribute('open');
    expect(screen.getByRole('link', { name: text('entryWarning.leave') })).toHaveAttribute('href', 'https://www.google.com/');
  });

  it.each([
    ['complete-signup', '/complete-signup'],
    ['reset-password', '/reset-password'],
    ['reset-password-do', '/reset-password/do'],
  ] as const)('is hidden on %s', async (routeName, path) => {
    // The layout alone on a route of that name: complete-signup's own page sends visitors away.
    await renderInRoute(<DefaultLayout />, { path, routeName });
    expect(screen.getByTestId('footer')).toBeInTheDocument();
    expect(warning()).toBeNull();
  });

  it('is shown on other routes of the same layout, such as login', async () => {
    await renderInRoute(<DefaultLayout />, { path: '/login', routeName: 'login' });
    await findWarning();
  });

  it('is hidden on the real reset-password pages', async () => {
    await renderApp('/reset-password');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('textbox', { name: /email/i })).toBeInTheDocument();
    expect(warning()).toBeNull();
  });
});

describe('entry warning on the chat and lander layouts: NL and DE only (spec §2, §9)', () => {
  it.each(['NL', 'DE'])('lander layout shows it to visitors from %s', async (country) => {
    await renderApp('/landers/video', { settings: settingsFixture({ geoip_country: country }) });
    await findWarning();
  });

  it.each(['FR', 'US', null])('lander layout does not show it to visitors from %s', async (country) => {
    await renderApp('/landers/video', { settings: settingsFixture({ geoip_country: country }) });
    await landerShown();
    expect(warning()).toBeNull();
  });

  it('lander layout does not show it to a logged-in member from NL', async () => {
    await renderApp('/landers/video', { settings: settingsFixture({ geoip_country: 'NL' }), user: userFixture() });
    await landerShown();
    expect(warning()).toBeNull();
  });

  it.each(['NL', 'DE'])('chat layout shows it to visitors from %s', async (country) => {
    await renderInRoute(<ChatLayout />, {
      path: '/members/5/chat',
      routeName: 'members-id-chat',
      settings: settingsFixture({ geoip_country: country }),
    });
    await findWarning();
  });

  it.each(['BE', 'GB', null])('chat layout does not show it to visitors from %s', async (country) => {
    await renderInRoute(<ChatLayout />, {
      path: '/members/5/chat',
      routeName: 'members-id-chat',
      settings: settingsFixture({ geoip_country: country }),
    });
    expect(warning()).toBeNull();
  });
});

describe('entry warning in the installed app (spec §2: not in installed-app mode)', () => {
  it('lander layout does not show it to a visitor from NL in the installed app', async () => {
    runAsInstalledApp();
    await renderApp('/landers/video', { settings: settingsFixture({ geoip_country: 'NL' }) });
    await landerShown();
    expect(warning()).toBeNull();
  });

  it('chat layout does not show it to a visitor from DE in the installed app', async () => {
    runAsInstalledApp();
    await renderInRoute(<ChatLayout />, {
      path: '/members/5/chat',
      routeName: 'members-id-chat',
      settings: settingsFixture({ geoip_country: 'DE' }),
    });
    expect(warning()).toBeNull();
  });
});
