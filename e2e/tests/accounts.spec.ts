import type { Page } from '@playwright/test';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { linkIn, uniqueEmail, waitForMail } from './mail';

const PASSWORD = 'correct horse battery';

async function signUp(page: Page, email: string, isPhone: boolean, name = 'Robin'): Promise<void> {
  await page.goto('/');
  await page.getByTestId('cta-signup').click();
  if (isPhone) {
    await expect(page).toHaveURL(/\/signup$/);
  } else {
    await expect(page.getByTestId('signup-modal')).toBeVisible();
  }
  const form = page.getByTestId('signup-form');
  await form.getByLabel('Username').fill(name);
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel(/^Password/).fill(PASSWORD);
  await form.getByLabel(/Date of birth/).fill('1992-04-11');
  await form.getByLabel(/I accept the/).check();
  await form.getByTestId('signup-submit').click();
  await expect(page.getByTestId('complete-signup')).toBeVisible();
}

async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function logOut(page: Page): Promise<void> {
  // complete-signup has no top menu (spec §2): log out from the members page.
  await page.goto('/members');
  await page.getByTestId('account-menu').click();
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('login-button')).toBeVisible();
}

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

/** A click on the dimmed page around a modal: it lands on the <dialog>'s backdrop. */
async function clickBackdrop(page: Page): Promise<void> {
  await page.mouse.click(8, 8);
}

test.describe('the signup modal', () => {
  test.skip(({ isMobile }) => isMobile, 'phones get the signup page instead (spec §2)');

  test('opens again after Escape, the close button and a click on the backdrop', async ({ page }) => {
    await page.goto('/');
    const cta = page.getByRole('button', { name: 'Sign up for free' });
    const modal = page.getByTestId('signup-modal');
    const open = async () => {
      await cta.click();
      await expect(modal).toBeVisible();
      await expect(modal.getByTestId('signup-form')).toBeVisible();
    };

    await open();
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    // Focus goes back to the button that opened it.
    await expect(cta).toBeFocused();

    await open();
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toBeHidden();

    await open();
    await clickBackdrop(page);
    await expect(modal).toBeHidden();

    // And again after a second Escape: nothing is left half-open.
    await open();
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await open();
    await modal.getByLabel('Username').fill('Robin');
    await expect(modal.getByLabel('Username')).toHaveValue('Robin');
  });

  test('cannot be closed while the signup is in progress (spec §4)', async ({ page }, info) => {
    // The signup call is held until the modal has been tried with Escape, the backdrop and its close button.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/signup.php', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await page.getByTestId('cta-signup').click();
    const modal = page.getByTestId('signup-modal');
    const form = modal.getByTestId('signup-form');
    await form.getByLabel('Username').fill('Robin');
    await form.getByLabel('Email address').fill(uniqueEmail('locked', info.project.name));
    await form.getByLabel(/^Password/).fill(PASSWORD);
    await form.getByLabel(/Date of birth/).fill('1992-04-11');
    await form.getByLabel(/I accept the/).check();
    const sent = page.waitForRequest('**/api/signup.php');
    await form.getByTestId('signup-submit').click();
    await sent;

    // Twice: the browser lets a page refuse only one Escape per user action, and the modal must stay anyway.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(modal).toBeVisible();
    await clickBackdrop(page);
    await page.keyboard.press('Escape');
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Close' })).toBeDisabled();
    await expect(form.getByLabel('Username')).toHaveValue('Robin');

    release();
    await expect(page.getByTestId('complete-signup')).toBeVisible();
    await expect(modal).toBeHidden();
  });
});

test('on a phone, Sign up for free opens the signup page every time', async ({ page, isMobile }) => {
  test.skip(!isMobile, 'desktops get the modal');
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign up for free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByTestId('signup-form')).toBeVisible();
  await page.goBack();
  await page.getByRole('button', { name: 'Sign up for free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByTestId('signup-form')).toBeVisible();
});

test('sign up, activate from the mail, log out and in again', async ({ page }, info) => {
  const isPhone = info.project.name === 'phone';
  const email = uniqueEmail('signup', info.project.name);
  await signUp(page, email, isPhone);
  await expect(page.getByTestId('complete-signup')).toContainText('20 credits');

  // Who they are, whom they want to meet and where they live; the browser's position only on the button.
  const questions = page.getByTestId('complete-signup-form');
  await page.context().grantPermissions(['geolocation']);
  await page.context().setGeolocation({ latitude: 52.3731, longitude: 4.8922 });
  await questions.getByRole('group', { name: /I am/ }).getByText('Man', { exact: true }).click();
  await questions
    .getByRole('group', { name: /I want to meet/ })
    .getByText('Women', { exact: true })
    .click();
  await questions.getByRole('button', { name: 'Use my location' }).click();
  await expect(questions.getByRole('status')).toHaveText('Your city is now Amsterdam, Netherlands.');
  await expect(questions.getByLabel('Region')).toHaveValue('NL-NH');
  await expectAccessible(page);
  await questions.getByTestId('complete-signup-continue').click();
  await expect(page).toHaveURL(/\/signup-matches$/);

  const mail = await waitForMail(email, (m) => /Confirm/i.test(m.subject));
  expect(mail.subject).toContain('Amora');
  await page.goto(linkIn(mail));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByTestId('activate-card-profile')).toBeVisible();
  await expect(page.getByTestId('activate-card-premium')).toBeVisible();
  await expect(page.getByTestId('activate-card-members')).toBeVisible();
  await expectAccessible(page);

  await logOut(page);
  await logIn(page, email);
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('account-menu')).toContainText('Robin');
  // The search starts from the answers: women, in the Netherlands (on a phone the filters are in a sheet).
  if (info.project.name === 'phone') await page.getByTestId('search-filters-open').click();
  await expect(page.getByLabel('Gender')).toHaveValue('woman');
  await expect(page.getByLabel('Country')).toHaveValue('NL');
});

test('the signup form explains every rule of the spec', async ({ page }, info) => {
  await page.goto(info.project.name === 'phone' ? '/signup' : '/');
  if (info.project.name !== 'phone') await page.getByTestId('cta-signup').click();
  const form = page.getByTestId('signup-form');
  await form.getByLabel('Username').fill('@robin');
  await form.getByLabel('Email address').fill('not-an-address');
  await form.getByLabel(/Date of birth/).fill('2015-01-01');
  await form.getByTestId('signup-submit').click();
  await expect(form.getByText('Invalid email')).toBeVisible();
  await expect(form.getByText('Your username cannot start with @.')).toBeVisible();
  await expect(form.getByText('Date of birth not valid')).toBeVisible();
  await expect(form.getByText('Please accept the terms and conditions and the privacy policy.')).toBeVisible();
  await expectAccessible(page);
});

test('wrong passwords block the account for some minutes', async ({ page }, info) => {
  const email = uniqueEmail('blocked', info.project.name);
  await signUp(page, email, info.project.name === 'phone');
  await logOut(page);
  for (let i = 0; i < 4; i++) {
    await logIn(page, email, 'wrong password');
    await expect(page.getByTestId('login-error')).toHaveText('Login failed, try again');
  }
  await logIn(page, email, 'wrong password');
  await expect(page.getByTestId('login-error')).toHaveText(/Too many wrong attempts, the account stays blocked for 1[45] minutes/);
  await logIn(page, email);
  await expect(page.getByTestId('login-error')).toContainText('blocked');
});

test('reset the password from the mail', async ({ page }, info) => {
  const email = uniqueEmail('reset', info.project.name);
  await signUp(page, email, info.project.name === 'phone');
  await logOut(page);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  // The login page has an 'Email address' field too: wait for the reset page before typing.
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-requested')).toBeVisible();

  const mail = await waitForMail(email, (m) => /password/i.test(m.subject));
  await page.goto(linkIn(mail));
  await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
  await page.getByLabel('Repeat the new password').fill('something else');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Repeat the new password').fill('a brand new secret');
  await page.getByTestId('reset-do-submit').click();
  await expect(page).toHaveURL(/\/members$/);

  await logOut(page);
  await logIn(page, email, 'a brand new secret');
  await expect(page).toHaveURL(/\/members$/);

  // The link is single-use.
  await page.goto(linkIn(mail));
  await page.getByLabel('New password', { exact: true }).fill('yet another secret');
  await page.getByLabel('Repeat the new password').fill('yet another secret');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-error')).toContainText('Link expired or invalid, request a new email');
});

test('change the email address with the link sent to the new one', async ({ page }, info) => {
  const email = uniqueEmail('change', info.project.name);
  const newEmail = uniqueEmail('changed', info.project.name);
  await signUp(page, email, info.project.name === 'phone');
  // Until the address is confirmed, the page says to confirm it first.
  await page.goto('/settings');
  await expect(page.getByTestId('mail-change-unconfirmed')).toBeVisible();
  await page.goto(linkIn(await waitForMail(email, (m) => /Confirm/i.test(m.subject))));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await page.goto('/settings');
  await page.getByLabel('New email address').fill(newEmail);
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByTestId('mail-change-submit').click();
  await expect(page.getByTestId('mail-change-requested')).toContainText(newEmail);

  const notice = await waitForMail(email, (m) => m.text.includes(newEmail) && !/token=/.test(m.text));
  expect(notice.text).toContain(newEmail);
  const mail = await waitForMail(newEmail);
  await page.goto(linkIn(mail));
  await expect(page.getByTestId('mail-change-done')).toContainText(newEmail);
  await page.goto('/settings');
  await expect(page.getByTestId('current-email')).toHaveText(newEmail);
});

test('delete the account, refuse the discount, and reactivate it from the mail', async ({ page }, info) => {
  const email = uniqueEmail('delete', info.project.name);
  await signUp(page, email, info.project.name === 'phone');
  await page.goto('/settings');
  await page.getByTestId('delete-account').click();
  // The form first; the discount is offered once it is filled in with the password.
  await page.getByLabel('Why are you leaving?').selectOption('taking_break');
  await page.getByLabel('Current password').last().fill(PASSWORD);
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByTestId('delete-offer')).toContainText('30%');
  await page.getByTestId('delete-continue').click();
  await expect(page.getByTestId('account-deleted')).toBeVisible();

  // While removal runs, logging in says so.
  await logIn(page, email);
  await expect(page.getByTestId('login-error')).toContainText('still being removed');

  const mail = await waitForMail(email, (m) => /deleted/i.test(m.subject));
  await page.goto(linkIn(mail));
  await page.getByTestId('reactivate').click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('account-menu')).toBeVisible();
});
