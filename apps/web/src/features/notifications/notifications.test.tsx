import { NOTIFICATION_CHANNELS_OF, NOTIFICATION_DEFAULTS, NOTIFICATION_TYPES } from '@amora/contracts/core';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { answer } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

type Reason = 'bounce' | 'fbl' | 'listunsubscribe';

const defaults = () =>
  NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS_OF[type].map((channel) => ({ type, channel, enabled: NOTIFICATION_DEFAULTS[type][channel] })),
  );

/** The notifications API of one member, kept between calls; the calls it got. */
function notificationsApi(disabled: Reason[] = []) {
  const state = { preferences: defaults(), disabled: [...disabled], email: 'robin@example.com', push_subscribed: false };
  const calls: { method: string; body: unknown }[] = [];
  server.use(
    answer('GET /api/notifications.php', () => state),
    answer('PUT /api/notifications.php', async ({ request }) => {
      const body = (await request.json()) as { preferences: typeof state.preferences };
      calls.push({ method: 'PUT', body });
      for (const change of body.preferences) {
        const found = state.preferences.find((p) => p.type === change.type && p.channel === change.channel);
        if (found) found.enabled = change.enabled;
      }
      return state;
    }),
    answer('POST /api/notifications.php', async ({ request }) => {
      const body = (await request.json()) as { reasons: Reason[] };
      calls.push({ method: 'POST', body });
      state.disabled = state.disabled.filter((reason) => !body.reasons.includes(reason));
      return state;
    }),
  );
  return { state, calls };
}

describe('the notifications page', () => {
  it('shows every type with a switch per channel, set as the member chose, and saves a change at once', async () => {
    const { calls } = notificationsApi();
    const { user } = await renderApp('/notifications', { user: userFixture() });
    expect(await screen.findByRole('heading', { level: 1, name: text('notifications.title') })).toBeVisible();
    const table = await screen.findByRole('table');
    const offered = NOTIFICATION_TYPES.reduce((sum, type) => sum + NOTIFICATION_CHANNELS_OF[type].length, 0);
    expect(within(table).getAllByRole('switch')).toHaveLength(offered);
    // A type that comes by mail alone shows no push switch, and says so.
    expect(within(within(table).getByTestId('notify-weekly_updates')).getAllByRole('switch')).toHaveLength(1);
    expect(within(table).getByTestId('notify-weekly_updates')).toHaveTextContent(text('notifications.emailOnly'));
    const likesByEmail = within(table).getByRole('switch', {
      name: text('notifications.toggleLabel', {
        type: text('notifications.types.like.label'),
        channel: text('notifications.channels.email'),
      }),
    });
    expect(likesByEmail).toBeChecked();
    expect(screen.getByTestId('notify-promotions-email')).not.toBeChecked();

    await user.click(likesByEmail);
    expect(likesByEmail).not.toBeChecked();
    await waitFor(() =>
      expect(calls).toEqual([{ method: 'PUT', body: { preferences: [{ type: 'like', channel: 'email', enabled: false }] } }]),
    );
    expect(await screen.findByText(text('notifications.saved'))).toBeVisible();
    expect(screen.getByTestId('mail-address')).toHaveTextContent('robin@example.com');
    // The delete-account item is on the page too (spec §2), and push on this device as this browser allows it.
    expect(screen.getByTestId('delete-account')).toBeVisible();
    const push = screen.getByTestId('push-state');
    expect(push).toHaveTextContent(text(`notifications.push.states.${push.dataset.state}`, { site: 'Amora' }));
  });

  it('puts a switch back when saving fails', async () => {
    notificationsApi();
    server.use(http.put('*/api/notifications.php', () => HttpResponse.json({ error: 'internal_error', message: 'x' }, { status: 500 })));
    const { user } = await renderApp('/notifications', { user: userFixture() });
    const news = await screen.findByTestId('notify-news-email');
    await user.click(news);
    await waitFor(() => expect(news).not.toBeChecked());
    expect(screen.queryByText(text('notifications.saved'))).toBeNull();
  });

  it('after a bounce: says so with the address, and the member confirms it to get mail again', async () => {
    const { calls } = notificationsApi(['bounce']);
    const { user } = await renderApp('/notifications', { user: userFixture({ notifications_disabled: ['bounce'] }) });
    const stopped = await screen.findByTestId('mail-stopped');
    expect(stopped).toHaveTextContent(text('notifications.stopped.bounce', { email: 'robin@example.com' }));
    expect(within(stopped).getByRole('link', { name: text('notifications.stopped.bounceChange') })).toHaveAttribute('href', '/settings');
    await user.click(within(stopped).getByTestId('confirm-address'));
    await waitFor(() => expect(screen.queryByTestId('mail-stopped')).toBeNull());
    expect(calls).toEqual([{ method: 'POST', body: { reasons: ['bounce'] } }]);
  });

  it('after a spam report or an unsubscribe: the member opts in again explicitly', async () => {
    const { calls } = notificationsApi(['fbl', 'listunsubscribe']);
    const { user } = await renderApp('/notifications', { user: userFixture({ notifications_disabled: ['fbl', 'listunsubscribe'] }) });
    const stopped = await screen.findByTestId('mail-stopped');
    expect(stopped).toHaveTextContent(text('notifications.stopped.fbl'));
    expect(stopped).toHaveTextContent(text('notifications.stopped.listunsubscribe'));
    await user.click(within(stopped).getByTestId('opt-in'));
    await waitFor(() => expect(screen.queryByTestId('mail-stopped')).toBeNull());
    expect(calls).toEqual([{ method: 'POST', body: { reasons: ['fbl', 'listunsubscribe'] } }]);
  });

  it('sends a visitor to the login', async () => {
    notificationsApi();
    const { router } = await renderApp('/notifications', { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('the disabled-notifications alert', () => {
  it('shows over the pages of a member whose mail stopped, links to the notifications, and stays away once dismissed', async () => {
    notificationsApi(['bounce']);
    const { user } = await renderApp('/pages/terms', { user: userFixture({ notifications_disabled: ['bounce'] }) });
    const alert = await screen.findByTestId('disabled-notifications-alert');
    expect(alert).toHaveTextContent(text('notifications.alert.bounce'));
    expect(within(alert).getByRole('link', { name: text('notifications.alert.link') })).toHaveAttribute('href', '/notifications');
    await user.click(within(alert).getByRole('button', { name: text('common.close') }));
    expect(screen.queryByTestId('disabled-notifications-alert')).toBeNull();
    expect(window.localStorage.getItem('hide-disabled-notifications-alert')).toMatch(/^\d+$/);
  });

  it('is not shown on settings and notifications, nor to a member whose mail goes out', async () => {
    notificationsApi(['fbl']);
    await renderApp('/notifications', { user: userFixture({ notifications_disabled: ['fbl'] }) });
    await screen.findByTestId('mail-stopped');
    expect(screen.queryByTestId('disabled-notifications-alert')).toBeNull();
  });
});

describe('the unsubscribe page', () => {
  const token = `${'a'.repeat(12)}.${'b'.repeat(43)}`;

  it('changes nothing when opened; the member stops that type, or everything', async () => {
    const puts: unknown[] = [];
    server.use(
      answer('GET /api/unsubscribe.php', () => ({ type: 'new_messages' as const, site: 'Amora', done: false })),
      answer('PUT /api/unsubscribe.php', async ({ request }) => {
        puts.push(await request.json());
        return { ok: true as const };
      }),
    );
    const { user } = await renderApp(`/unsubscribe?t=${token}`, { user: null });
    const type = text('notifications.types.new_messages.label');
    expect(await screen.findByText(text('notifications.unsubscribe.question', { type, site: 'Amora' }))).toBeVisible();
    expect(puts).toEqual([]);
    await user.click(screen.getByTestId('unsubscribe-type'));
    expect(await screen.findByTestId('unsubscribe-done')).toHaveTextContent(text('notifications.unsubscribe.doneType', { type }));
    expect(puts).toEqual([{ scope: 'type' }]);
  });

  it('says when the link is not valid', async () => {
    server.use(http.get('*/api/unsubscribe.php', () => HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 })));
    await renderApp(`/unsubscribe?t=${token}`, { user: null });
    expect(await screen.findByTestId('unsubscribe-invalid')).toHaveTextContent(text('notifications.unsubscribe.invalid'));
  });
});
