import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

/** The settings page with the delete dialog open at its form (no discount offer first). */
async function openDeleteForm() {
  const view = await renderApp('/settings', { user: userFixture(), settings: settingsFixture({ delete_discount: 0 }) });
  await view.user.click(await screen.findByTestId('delete-account'));
  const dialog = await screen.findByTestId('delete-dialog');
  return { ...view, dialog };
}

/** Answers DELETE user.php with this refusal, counting the calls. */
function refuseDeletion(status: number, body: Record<string, unknown>) {
  const calls: unknown[] = [];
  server.use(
    http.delete('*/api/user.php', async ({ request }) => {
      calls.push(await request.json());
      return HttpResponse.json(body, { status });
    }),
  );
  return calls;
}

describe('the account-deletion form', () => {
  it('shows a reason text over 1000 characters as the field’s error and sends nothing', async () => {
    const calls = refuseDeletion(500, { error: 'internal_error', message: 'should not be called' });
    const { user, dialog } = await openDeleteForm();
    const reasonText = within(dialog).getByLabelText(text('settings.delete.reasonText'));
    await user.click(reasonText);
    await user.paste('x'.repeat(1001));
    await user.type(within(dialog).getByLabelText(text('settings.currentPassword')), 'secret-password');
    await user.click(within(dialog).getByTestId('delete-confirm'));

    expect(await within(dialog).findByText(text('auth.errors.reasonTextLength'))).toBeVisible();
    expect(reasonText).toHaveAttribute('aria-invalid', 'true');
    expect(reasonText).toHaveAccessibleDescription(text('auth.errors.reasonTextLength'));
    expect(calls).toHaveLength(0);
  });

  it('shows the server’s refusal of the reason text under that field, in the page’s language', async () => {
    refuseDeletion(400, {
      error: 'validation_failed',
      message: 'This text contains characters that are not allowed.',
      field: 'reason_text',
      message_key: 'errors.invalidCharacters',
    });
    const { user, dialog } = await openDeleteForm();
    const reasonText = within(dialog).getByLabelText(text('settings.delete.reasonText'));
    await user.type(reasonText, 'Bye');
    await user.type(within(dialog).getByLabelText(text('settings.currentPassword')), 'secret-password');
    await user.click(within(dialog).getByTestId('delete-confirm'));

    expect(await within(dialog).findByText(text('errors.invalidCharacters'))).toBeVisible();
    expect(reasonText).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('shows a wrong password under the password field', async () => {
    refuseDeletion(403, {
      error: 'wrong_password',
      message: 'Your password is not correct.',
      field: 'password',
      message_key: 'auth.errors.wrongPassword',
    });
    const { user, dialog } = await openDeleteForm();
    const password = within(dialog).getByLabelText(text('settings.currentPassword'));
    await user.type(password, 'not-the-password');
    await user.click(within(dialog).getByTestId('delete-confirm'));
    expect(await within(dialog).findByText(text('auth.errors.wrongPassword'))).toBeVisible();
    expect(password).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('the email section', () => {
  it('confirms a requested change with a toast as well as in the card', async () => {
    server.use(http.post('*/api/mail-change.php', () => HttpResponse.json({ ok: true })));
    const { user } = await renderApp('/settings', { user: userFixture(), settings: settingsFixture() });
    const card = await screen.findByTestId('settings-email');
    await user.type(within(card).getByLabelText(text('settings.email.new')), 'new@example.com');
    await user.type(within(card).getByLabelText(text('settings.currentPassword')), 'secret-password');
    await user.click(within(card).getByTestId('mail-change-submit'));

    const sent = text('settings.email.sent', { email: 'new@example.com' });
    expect(await within(card).findByTestId('mail-change-requested')).toHaveTextContent(sent);
    await waitFor(() => expect(screen.getByTestId('toasts')).toHaveTextContent(sent));
  });
});

describe('the email-change form', () => {
  it('is offered only once the member confirmed their address; before, the page says to confirm first', async () => {
    await renderApp('/settings', { user: userFixture({ status: 'not_confirmed' }) });
    expect(await screen.findByTestId('mail-change-unconfirmed')).toHaveTextContent(text('auth.errors.mailChangeUnconfirmed'));
    expect(screen.queryByTestId('mail-change-form')).toBeNull();
  });

  it('is there for a confirmed member', async () => {
    await renderApp('/settings', { user: userFixture() });
    expect(await screen.findByTestId('mail-change-form')).toBeVisible();
    expect(screen.queryByTestId('mail-change-unconfirmed')).toBeNull();
  });
});

describe('the delete discount', () => {
  /** Answers delete-discount.php as given, recording what was sent; DELETE user.php is recorded too. */
  function answers(offer: { status: number; body: Record<string, unknown> }) {
    const offered: unknown[] = [];
    const deleted: unknown[] = [];
    server.use(
      http.post('*/api/delete-discount.php', async ({ request }) => {
        offered.push(await request.json());
        return HttpResponse.json(offer.body, { status: offer.status });
      }),
      http.delete('*/api/user.php', async ({ request }) => {
        deleted.push(await request.json());
        return HttpResponse.json({ ok: true, reactivation_days: 14 });
      }),
    );
    return { offered, deleted };
  }

  async function fillAndDelete(password = 'secret-password') {
    const view = await renderApp('/settings', { user: userFixture(), settings: settingsFixture({ delete_discount: 30 }) });
    await view.user.click(await screen.findByTestId('delete-account'));
    const dialog = await screen.findByTestId('delete-dialog');
    // The form comes first: opening the dialog asks for no discount.
    expect(within(dialog).queryByTestId('delete-offer')).toBeNull();
    await view.user.type(within(dialog).getByLabelText(text('settings.currentPassword')), password);
    await view.user.click(within(dialog).getByTestId('delete-confirm'));
    return { ...view, dialog };
  }

  it('is offered once the form is filled in, with its password; keeping the account shows the code and deletes nothing', async () => {
    const calls = answers({ status: 200, body: { code: 'STAYABCD1234', value_percentage: 30, expires: '2026-12-28T00:00:00Z' } });
    const { user, dialog } = await fillAndDelete();
    expect(await within(dialog).findByTestId('delete-offer')).toHaveTextContent(text('settings.delete.offerTitle', { percent: 30 }));
    expect(calls.offered).toEqual([{ password: 'secret-password' }]);
    await user.click(within(dialog).getByTestId('delete-keep'));
    expect(await screen.findByTestId('discount-kept')).toHaveTextContent('STAYABCD1234');
    expect(calls.deleted).toHaveLength(0);
  });

  it('No thanks deletes with what the form said', async () => {
    const calls = answers({ status: 200, body: { code: 'STAYABCD1234', value_percentage: 30, expires: '2026-12-28T00:00:00Z' } });
    const { user, dialog } = await fillAndDelete();
    await user.click(await within(dialog).findByTestId('delete-continue'));
    await waitFor(() => expect(calls.deleted).toHaveLength(1));
    expect(calls.deleted[0]).toMatchObject({ password: 'secret-password', reason: 'other' });
  });

  it('once offered before (404), the account is deleted without an offer', async () => {
    const calls = answers({ status: 404, body: { error: 'not_found', message: 'offered already' } });
    await fillAndDelete();
    await waitFor(() => expect(calls.deleted).toHaveLength(1));
    expect(screen.queryByTestId('delete-offer')).toBeNull();
  });

  it('a wrong password shows under its field, and nothing is deleted', async () => {
    const calls = answers({ status: 403, body: { error: 'wrong_password', message: 'Wrong password', field: 'password' } });
    const { dialog } = await fillAndDelete('not-mine');
    const password = within(dialog).getByLabelText(text('settings.currentPassword'));
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).queryByTestId('delete-offer')).toBeNull();
    expect(calls.deleted).toHaveLength(0);
  });
});
