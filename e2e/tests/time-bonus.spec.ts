import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { appReady, expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * The time bonus (spec §2, §4, §9) for a member who signed up a moment ago: the banner over the members area with
 * an hh:mm:ss countdown ticking every second and a link to the credits, and the modal 40 s after entering the
 * members area once the member has 0 credits, which stays away once dismissed. The 40 s pass on the browser's clock
 * (Playwright's clock API), so the journey waits for nothing; the server's clock runs as it does.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

/** The countdown's hh:mm:ss in seconds. */
async function secondsShown(page: Page): Promise<number> {
  const text = (await page.getByTestId('time-bonus-banner').getByRole('timer').textContent())?.trim() ?? '';
  expect(text).toMatch(/^\d\d:\d\d:\d\d$/);
  const [h, m, s] = text.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

test('a new member sees the time bonus ticking and, with 0 credits, its modal after 40 s; a dismissal is remembered', async ({
  browser,
}, testInfo) => {
  const project = testInfo.project.name;
  const member = await newMember(browser, 'Tessa', project, { asDevice: true });
  const other = await newMember(browser, 'Ilse', project);
  const { page } = member;
  await page.clock.install();

  await page.goto('/members');
  await appReady(page);
  const banner = page.getByRole('region', { name: 'Time bonus' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('link')).toHaveAttribute('href', '/credits');
  await expect(banner).toContainText('25% off credits');
  // The banner's text starts where the top bar's logo does, on a desktop and on a phone.
  const [logoLeft, textLeft] = await page.evaluate(() => {
    const logo = document.querySelector('.brand-logo')?.getBoundingClientRect().left ?? -1;
    const link = document.querySelector('[data-testid="time-bonus-link"]') as HTMLElement;
    return [logo, link.getBoundingClientRect().left + Number.parseFloat(getComputedStyle(link).paddingLeft)];
  });
  expect(Math.abs(textLeft - logoLeft)).toBeLessThanOrEqual(1);
  // Signed up a moment ago: close to the whole 4 hours.
  const first = await secondsShown(page);
  expect(first).toBeGreaterThan(4 * 3600 - 300);
  expect(first).toBeLessThanOrEqual(4 * 3600);
  await page.clock.runFor(5_000);
  await expect.poll(() => secondsShown(page)).toBeLessThanOrEqual(first - 5);
  expect(await secondsShown(page)).toBeGreaterThan(first - 30);
  await expectTranslated(page);
  await expectAccessible(page);

  // With credits left (20 at signup) the modal does not come.
  await page.clock.runFor(41_000);
  await expect(page.getByTestId('time-bonus-modal')).toHaveCount(0);

  // The member spends the signup credits (two messages of 10) and enters the members area again on a new page.
  for (const body of ['Hello Ilse!', 'How is your week going?']) {
    const sent = await page.request.post('/api/messages.php', {
      headers: CLIENT,
      data: { profile: other.profileId, body, client_id: randomUUID() },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  const { user } = await (await page.request.get('/api/user.php', { headers: CLIENT })).json();
  expect(user.credits).toBe(0);

  await page.goto('/likes');
  // The server renders the page with the banner; the modal's 40 s start once the app has taken it over.
  await appReady(page);
  await expect(banner).toBeVisible();
  // The browser's clock also runs by itself meanwhile: on a busy machine the page may take seconds to show the
  // banner after the 40 s began, so the journey checks "not after 30 s" and "there by 42 s".
  await page.clock.runFor(30_000);
  await expect(page.getByTestId('time-bonus-modal')).toHaveCount(0);
  await page.clock.runFor(12_000);
  const modal = page.getByRole('dialog', { name: 'Your new member bonus: 25% off' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('timer')).toHaveText(/^0[34]:\d\d:\d\d$/);
  await expect(modal.getByRole('link', { name: 'Choose credits' })).toHaveAttribute('href', '/credits');
  await expectAccessible(page);

  await modal.getByRole('button', { name: 'No thanks' }).click();
  await expect(modal).toHaveCount(0);
  expect(await page.evaluate(() => window.localStorage.getItem('hide-time-bonus-modal'))).toMatch(/^\d+$/);

  // A new page load, 40 s and more in the members area: the banner stays, the modal does not come back.
  await page.goto('/members');
  await appReady(page);
  await expect(banner).toBeVisible();
  await page.clock.runFor(45_000);
  await expect(page.getByTestId('time-bonus-modal')).toHaveCount(0);

  await page.context().close();
  await other.page.context().close();
});
