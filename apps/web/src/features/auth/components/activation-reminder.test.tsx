import { signupMatchesResponseSchema } from '@amora/contracts';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { SignupMatchesPage } from '../pages/signup-matches-page';
import { ActivationReminder } from './activation-reminder';

const newMember = (overrides: Parameters<typeof userFixture>[0] = {}) =>
  userFixture({ status: 'not_confirmed', ...overrides }, { status: 'disabled', main_image: null });

/** The signup flow's last page, then the reminder of the page it leads to. */
function Flow() {
  const { pathname } = useLocation();
  return pathname === '/signup-matches' ? <SignupMatchesPage /> : <ActivationReminder />;
}

describe('the activation reminder', () => {
  it('shows an unconfirmed member who turned read receipts off the alert all the same', async () => {
    await renderInRoute(<ActivationReminder />, { path: '/members', routeName: 'members', user: newMember({ read_receipts: false }) });
    expect(await screen.findByRole('region', { name: text('activation.title') })).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each([['bounce'], ['fbl'], ['listunsubscribe'], ['bounce', 'fbl']] as const)(
    'stays away when mail to the member stopped (%s)',
    async (...reasons) => {
      await renderInRoute(<ActivationReminder />, {
        path: '/members',
        routeName: 'members',
        user: newMember({ notifications_disabled: [...reasons] }),
      });
      expect(screen.queryByRole('region', { name: text('activation.title') })).toBeNull();
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  );

  it('is a modal where the signup flow ends: the signup matches lead to the members with api_signup_complete', async () => {
    server.use(http.get('*/api/signup-matches.php', () => contractJson(signupMatchesResponseSchema, { profiles: [] })));
    const { user, router } = await renderInRoute(<Flow />, { path: '/signup-matches', routeName: 'members', user: newMember() });
    await user.click(await screen.findByRole('link', { name: text('signupMatches.continue') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/members'));
    expect(router.state.location.search).toBe('?api_signup_complete=1');
    const dialog = await screen.findByRole('dialog', { name: text('activation.title') });
    expect(dialog).toBeVisible();
    await user.click(screen.getByRole('button', { name: text('common.close') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
