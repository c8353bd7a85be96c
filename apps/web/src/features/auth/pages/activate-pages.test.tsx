import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { text } from '@/testing/text';

describe('activation done (spec §2)', () => {
  it('the complete-your-profile card leads a member to profile editing on /profile, and says so', async () => {
    await renderApp('/de/activate/done', { user: userFixture() });
    const card = await screen.findByTestId('activate-card-profile');
    const link = within(card).getByRole('link');
    expect(link).toHaveAttribute('href', '/de/profile');
    expect(link).toHaveTextContent('Zu meinem Profil');
  });

  it('sends a visitor to log in first', async () => {
    await renderApp('/activate/done');
    const card = await screen.findByTestId('activate-card-profile');
    expect(within(card).getByRole('link', { name: text('activateDone.cards.profile.button') })).toHaveAttribute('href', '/login');
  });
});
