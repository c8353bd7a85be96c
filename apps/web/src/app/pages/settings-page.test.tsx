import { okResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, server } from '@/testing/server';
import { text } from '@/testing/text';

const card = (id: number, name: string, isFictional = false) => ({
  id,
  name,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: null,
  is_fictional: isFictional,
  is_premium: false,
});

/** The settings page of features/auth with the blocked members of features/profiles, put together in app/pages. */
describe('settings: blocked members', () => {
  it('lists the members I blocked, each linking to their page; Unblock takes one off the list at once', async () => {
    const unblocked: unknown[] = [];
    server.use(
      answers.blocked([card(5, 'Noa'), card(6, 'Sem', true)]),
      http.delete('*/api/block.php', async ({ request }) => {
        unblocked.push(await request.json());
        return contractJson(okResponseSchema, { ok: true });
      }),
    );
    const { user } = await renderApp('/settings', { user: userFixture() });
    const section = await screen.findByTestId('settings-blocked');
    const rows = await within(section).findAllByTestId('blocked-member');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Noa'), expect.stringContaining('Sem')]);
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/members/5');
    await user.click(within(section).getByRole('button', { name: text('settings.blocked.unblockLabel', { name: 'Noa' }) }));
    await waitFor(() => expect(within(section).getAllByTestId('blocked-member')).toHaveLength(1));
    expect(unblocked).toEqual([{ profile_id: 5 }]);
    expect(await screen.findByText(text('member.unblockDone', { name: 'Noa' }))).toBeVisible();
  });

  it('shows a member I can no longer see without name or link, and unblocks them', async () => {
    const unblocked: unknown[] = [];
    server.use(
      answers.blocked([{ id: 7, hidden: true, is_fictional: false }, card(5, 'Noa')]),
      http.delete('*/api/block.php', async ({ request }) => {
        unblocked.push(await request.json());
        return contractJson(okResponseSchema, { ok: true });
      }),
    );
    const { user } = await renderApp('/settings', { user: userFixture() });
    const section = await screen.findByTestId('settings-blocked');
    const [hidden] = await within(section).findAllByTestId('blocked-member');
    expect(hidden).toHaveTextContent(text('settings.blocked.hiddenMember'));
    expect(within(hidden).queryByRole('link')).toBeNull();
    await user.click(within(hidden).getByRole('button', { name: text('settings.blocked.unblockHiddenLabel') }));
    await waitFor(() => expect(within(section).getAllByTestId('blocked-member')).toHaveLength(1));
    expect(unblocked).toEqual([{ profile_id: 7 }]);
    expect(await screen.findByText(text('settings.blocked.unblockHiddenDone'))).toBeVisible();
  });

  it('says so when I blocked nobody', async () => {
    await renderApp('/settings', { user: userFixture() });
    expect(await screen.findByTestId('blocked-empty')).toHaveTextContent(text('settings.blocked.empty'));
  });

  it('keeps a member on the list when unblocking fails, and says why', async () => {
    server.use(
      answers.blocked([card(5, 'Noa')]),
      http.delete('*/api/block.php', () => HttpResponse.json({ error: 'internal_error', message: 'Boom' }, { status: 500 })),
    );
    const { user } = await renderApp('/settings', { user: userFixture() });
    const section = await screen.findByTestId('settings-blocked');
    await user.click(await within(section).findByRole('button', { name: text('settings.blocked.unblockLabel', { name: 'Noa' }) }));
    expect(await screen.findByText(text('errors.generic'))).toBeVisible();
    expect(within(section).getAllByTestId('blocked-member')).toHaveLength(1);
  });
});
