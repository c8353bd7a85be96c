import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The demo staff's password (development demo data). */
const STAFF_PASSWORD = 'amora-console-2026';

/** The demo staff's current authenticator code (the development server tells it). */
async function currentCode(page: Page): Promise<string> {
  const response = await page.request.get('/api/dev/console-code.php');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { code: string }).code;
}

/**
 * Signs a demo staff member in at /console as a person would: password, then the authenticator's code. A code is
 * taken once per staff member, so when another sign-in of the same staff member (another journey running beside
 * this one) just used it, this one waits for the next code and tries again.
 */
export async function signInToConsole(page: Page, email: string): Promise<void> {
  await page.goto('/console');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  const who = page.getByTestId('console-who');
  let tried = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    let code = await currentCode(page);
    while (code === tried) {
      await page.waitForTimeout(2_000);
      code = await currentCode(page);
    }
    tried = code;
    // A code refused a moment ago may still have been the one that signed in (its answer came after the error of
    // an earlier try): the console is then open and there is no code field to fill.
    const field = page.getByLabel('Six-digit code from your authenticator app');
    await expect(who.or(field)).toBeVisible();
    if (await who.isVisible()) return;
    await field.fill(code);
    await page.getByTestId('code-submit').click();
    await expect(who.or(page.getByTestId('console-error'))).toBeVisible();
    if (await who.isVisible()) return;
  }
  throw new Error(`${email} could not sign in to the console`);
}
