import type { Browser, Page } from '@playwright/test';
import { answerEntryWarning, expect, test } from './fixtures';
import { linkIn, uniqueEmail, waitForMail } from './mail';

export const PASSWORD = 'correct horse battery';

/**
 * A fresh, activated member through the signup API (the UI journey is covered in accounts.spec), logged in in
 * its own browser context. `asDevice` gives that context the project's device (phone or desktop).
 *
 * The day's auto-like (spec §7) is taken at once and its fictional liker blocked, so it can neither open the
 * match modal over a journey that stays 20 s in the members area on a slow machine nor add a like to its lists;
 * `keepAutoLike` leaves it to come as it would.
 */
export async function newMember(
  browser: Browser,
  name: string,
  project: string,
  { asDevice = false, keepAutoLike = false }: { asDevice?: boolean; keepAutoLike?: boolean } = {},
): Promise<{ page: Page; email: string; profileId: number }> {
  const { baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = test.info().project.use;
  const context = asDevice
    ? await browser.newContext({ baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch })
    : await browser.newContext({ baseURL });
  await answerEntryWarning(context);
  const page = await context.newPage();
  const email = uniqueEmail(name.toLowerCase(), project);
  const res = await page.request.post('/api/signup.php', {
    headers: { 'x-request-type': 'client' },
    data: { email, name, password: PASSWORD, date_of_birth: '1990-03-03', terms: true },
  });
  expect(res.ok()).toBe(true);
  const { user } = await res.json();
  // Only activated profiles are shown to others: open the link from the activation mail.
  await page.goto(linkIn(await waitForMail(email)));
  await expect(page).toHaveURL(/\/activate\/done$/);
  if (!keepAutoLike) {
    const autoLike = await page.request.get('/api/auto-like.php', { headers: { 'x-request-type': 'client' } });
    expect(autoLike.ok()).toBe(true);
    const { profile } = (await autoLike.json()) as { profile: { id: number } | null };
    if (profile) {
      const blocked = await page.request.post('/api/block.php', {
        headers: { 'x-request-type': 'client' },
        data: { profile_id: profile.id },
      });
      expect(blocked.ok()).toBe(true);
    }
  }
  return { page, email, profileId: user.profile.id };
}
