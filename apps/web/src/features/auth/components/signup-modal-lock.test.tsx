import { errorSchema, userResponseSchema } from '@amora/contracts';
import { ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { isDialogOpen, pressEscape, pressEscapeAgain } from '@/testing/dialog';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, server } from '@/testing/server';
import { text } from '@/testing/text';
import { SIGNUP_FLOW_COMPLETE, SIGNUP_STARTED } from './signup-events';

/**
 * The signup modal of spec §2 and its lock of spec §4: it cannot be closed by the backdrop or Escape while the
 * signup is in progress, from the signup-started event to signup-flow-complete; before and after it can.
 */

type Page = Awaited<ReturnType<typeof renderApp>>;

const modal = () => screen.queryByTestId('signup-modal');
const isOpen = () => isDialogOpen(modal());

beforeEach(() => {
  // The entry warning answered before, so the index page is free to use.
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
});

async function openSignup({ user }: Page): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: text('home.ctaSignup') }));
  const dialog = await screen.findByRole('dialog', { name: text('signup.title', { site: 'Amora' }) });
  await within(dialog).findByTestId('signup-form');
  expect(isOpen()).toBe(true);
  return dialog;
}

async function fillAndSubmit({ user }: Page, email = 'robin@example.com'): Promise<void> {
  const dialog = modal() as HTMLElement;
  await user.type(within(dialog).getByLabelText(text('signup.name')), 'Robin');
  await user.type(within(dialog).getByLabelText(text('signup.email')), email);
  await user.type(within(dialog).getByLabelText(text('signup.password')), 'correct horse battery');
  await user.type(within(dialog).getByLabelText(text('signup.dateOfBirth', { minAge: MIN_AGE })), '1990-05-04');
  await user.click(within(dialog).getByRole('checkbox'));
  await user.click(within(dialog).getByRole('button', { name: text('signup.submit') }));
}

/** signup.php held until the test lets it answer, as a slow server would. */
function holdSignup() {
  let answer: (response: Response) => void = () => {};
  const answered = new Promise<Response>((resolve) => {
    answer = resolve;
  });
  let requests = 0;
  server.use(
    http.post('*/api/signup.php', () => {
      requests++;
      return answered;
    }),
  );
  return {
    requests: () => requests,
    succeed: (user = userFixture({ status: 'not_confirmed' }, { status: 'disabled' })) => {
      server.use(answers.user(user));
      answer(contractJson(userResponseSchema, { user }));
    },
    failWithEmailTaken: () =>
      answer(
        contractJson(
          errorSchema,
          {
            error: 'email_taken',
            message: 'There is already an account with this email address.',
            message_key: 'auth.errors.emailTaken',
            field: 'email',
          },
          { status: 409 },
        ),
      ),
  };
}

/** Every way of closing a modal a member has, except its buttons. */
async function tryToClose(page: Page): Promise<void> {
  await pressEscape();
  await pressEscapeAgain();
  if (isOpen()) await page.user.click(modal() as HTMLElement);
}

describe('signup modal before the signup starts', () => {
  it('closes on Escape, and opens again', async () => {
    const page = await renderApp('/');
    await openSignup(page);
    await pressEscape();
    await waitFor(() => expect(modal()).toBeNull());
    await openSignup(page);
    await pressEscape();
    await waitFor(() => expect(modal()).toBeNull());
  });

  it('closes on a click on its backdrop, and opens again', async () => {
    const page = await renderApp('/');
    await openSignup(page);
    await page.user.click(modal() as HTMLElement);
    expect(modal()).toBeNull();
    await openSignup(page);
  });

  it('does not close on a click inside it', async () => {
    const page = await renderApp('/');
    const dialog = await openSignup(page);
    await page.user.click(within(dialog).getByLabelText(text('signup.name')));
    expect(isOpen()).toBe(true);
  });

  it('closes with its close button', async () => {
    const page = await renderApp('/');
    const dialog = await openSignup(page);
    await page.user.click(within(dialog).getByRole('button', { name: text('common.close') }));
    expect(modal()).toBeNull();
  });
});

describe('signup modal while the signup is in progress (spec §4)', () => {
  it('cannot be closed by Escape, the backdrop or its close button until signup.php answers', async () => {
    const page = await renderApp('/');
    const signup = holdSignup();
    const dialog = await openSignup(page);
    await fillAndSubmit(page);
    await waitFor(() => expect(signup.requests()).toBe(1));

    await tryToClose(page);
    expect(isOpen()).toBe(true);
    expect(modal()).toBe(dialog);
    expect(within(dialog).getByRole('button', { name: text('common.close') })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: text('signup.submit') })).toBeDisabled();
    expect(within(dialog).getByLabelText(text('signup.name'))).toHaveValue('Robin');

    signup.succeed();
    await waitFor(() => expect(modal()).toBeNull());
    // The page is loaded on demand: the address changes once it is there.
    await waitFor(() => expect(page.router.state.location.pathname).toBe('/complete-signup'));
  });

  it('can be closed again once the signup failed (signup-flow-complete), with the error shown', async () => {
    const page = await renderApp('/');
    const signup = holdSignup();
    const dialog = await openSignup(page);
    await fillAndSubmit(page);
    await waitFor(() => expect(signup.requests()).toBe(1));
    await tryToClose(page);
    expect(isOpen()).toBe(true);

    signup.failWithEmailTaken();
    expect(await within(dialog).findByText(text('auth.errors.emailTaken'))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: text('common.close') })).toBeEnabled();
    await pressEscape();
    await waitFor(() => expect(modal()).toBeNull());

    await openSignup(page);
    await page.user.click(modal() as HTMLElement);
    expect(modal()).toBeNull();
  });

  it('follows the window events alone: locked from signup-started, free from signup-flow-complete', async () => {
    const page = await renderApp('/');
    await openSignup(page);
    act(() => {
      window.dispatchEvent(new Event(SIGNUP_STARTED));
    });
    await tryToClose(page);
    expect(isOpen()).toBe(true);

    act(() => {
      window.dispatchEvent(new Event(SIGNUP_FLOW_COMPLETE));
    });
    await page.user.click(modal() as HTMLElement);
    expect(modal()).toBeNull();
  });
});
