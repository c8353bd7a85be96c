import type { Page } from '@playwright/test';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';

/**
 * The operator console (/console): demo staff sign in with their password and the authenticator's code (the
 * development server tells the demo staff's current code), see what their role may see, and sign out.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const PASSWORD = 'amora-console-2026';

/** The demo staff's current code; a code is taken once per staff member, so a used one waits for the next. */
async function currentCode(page: Page): Promise<string> {
  const response = await page.request.get('/api/dev/console-code.php');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { code: string }).code;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/console');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await page.getByLabel('Six-digit code from your authenticator app').fill(await currentCode(page));
  await page.getByTestId('code-submit').click();
  await expect(page.getByTestId('console-who')).toBeVisible();
}

test('the demo admin signs in with the authenticator code, reads the audit log and signs out', async ({ page }) => {
  const response = await page.goto('/console');
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  await expectAccessible(page);

  await signIn(page, 'admin@amora.example');
  await expect(page.getByTestId('console-role')).toHaveText('Admin');
  const nav = page.getByTestId('console-nav');
  await expect(nav.getByRole('link', { name: 'Staff' })).toBeVisible();
  await expectAccessible(page);

  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/console\/audit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  // The demo staff's creation is in the log (or, on a fresh log, the page says there is nothing yet).
  await expect(page.getByTestId('audit-table').or(page.getByTestId('audit-empty'))).toBeVisible();
  await expectAccessible(page);

  await page.getByTestId('console-sign-out').click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Signed out for real: the page loaded anew asks for the sign-in again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('a moderator sees no Staff section and is refused its page', async ({ page }) => {
  await signIn(page, 'moderator@amora.example');
  await expect(page.getByTestId('console-role')).toHaveText('Moderator');
  const nav = page.getByTestId('console-nav');
  await expect(nav.getByRole('link', { name: 'My sessions' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
  await expect(page.getByTestId('card-staff')).toHaveCount(0);
  await page.goto('/console/staff');
  await expect(page.getByTestId('console-forbidden')).toBeVisible();
});
