import { signInToConsole } from './console-staff';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';

/**
 * The operator console (/console): demo staff sign in with their password and the authenticator's code (the
 * development server tells the demo staff's current code), see what their role may see, and sign out.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

test('the demo admin signs in with the authenticator code, reads the audit log and signs out', async ({ page }) => {
  const response = await page.goto('/console');
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  await expectAccessible(page);

  await signInToConsole(page, 'admin@amora.example');
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
  await signInToConsole(page, 'moderator@amora.example');
  await expect(page.getByTestId('console-role')).toHaveText('Moderator');
  const nav = page.getByTestId('console-nav');
  await expect(nav.getByRole('link', { name: 'My sessions' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
  await expect(page.getByTestId('card-staff')).toHaveCount(0);
  await page.goto('/console/staff');
  await expect(page.getByTestId('console-forbidden')).toBeVisible();
});
