import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

describe('the read-receipts setting', () => {
  it('is on by default; turning it off stores it and says so', async () => {
    const calls: unknown[] = [];
    server.use(
      http.post('*/api/read-receipts.php', async ({ request }) => {
        const body = (await request.json()) as { enabled: boolean };
        calls.push(body);
        return HttpResponse.json({ ok: true, enabled: body.enabled });
      }),
    );
    const { user } = await renderApp('/settings', { user: userFixture() });
    const section = await screen.findByTestId('settings-read-receipts');
    const toggle = within(section).getByRole('switch', { name: text('chatSafety.receipts.label') });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(calls).toEqual([{ enabled: false }]));
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(await screen.findByText(text('chatSafety.receipts.off'))).toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(calls).toEqual([{ enabled: false }, { enabled: true }]);
  });

  it('shows off for a member who turned it off, and a failed change leaves it as it was', async () => {
    server.use(
      http.post('*/api/read-receipts.php', () => HttpResponse.json({ error: 'internal_error', message: 'Oops' }, { status: 500 })),
    );
    const { user } = await renderApp('/settings', { user: userFixture({ read_receipts: false }) });
    const toggle = within(await screen.findByTestId('settings-read-receipts')).getByRole('switch');
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText(text('errors.generic'))).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
  });
});
