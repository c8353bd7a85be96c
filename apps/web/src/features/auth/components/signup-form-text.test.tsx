import { ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

/**
 * The signup form checks its fields with the server's schemas: a name with a character the server cannot store
 * (a control character, as a paste can bring) is named in the member's words and never sent.
 */

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
});

describe('signup form and text the server cannot store', () => {
  it('shows the invalid-characters text under the name and sends nothing', async () => {
    let requests = 0;
    server.use(
      http.post('*/api/signup.php', () => {
        requests++;
        return new Response(null, { status: 500 });
      }),
    );
    const { user } = await renderApp('/');
    await user.click(await screen.findByRole('button', { name: text('home.ctaSignup') }));
    const dialog = await screen.findByRole('dialog', { name: text('signup.title', { site: 'Amora' }) });
    await within(dialog).findByTestId('signup-form');

    await user.click(within(dialog).getByLabelText(text('signup.name')));
    await user.paste('Ro\u0000bin');
    await user.type(within(dialog).getByLabelText(text('signup.email')), 'robin@example.com');
    await user.type(within(dialog).getByLabelText(text('signup.password')), 'correct horse battery');
    await user.type(within(dialog).getByLabelText(text('signup.dateOfBirth', { minAge: MIN_AGE })), '1990-05-04');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: text('signup.submit') }));

    expect(await within(dialog).findByText(text('errors.invalidCharacters'))).toBeVisible();
    expect(text('errors.invalidCharacters')).not.toBe('errors.invalidCharacters');
    expect(requests).toBe(0);
  });
});
