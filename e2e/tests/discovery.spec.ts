import type { Browser, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

const newMemberOnDevice = (browser: Browser, name: string, project: string) => newMember(browser, name, project, { asDevice: true });

const profileIdOf = async (card: Locator) => Number(await card.getAttribute('data-profile-id'));

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

/**
 * Runs a like and waits for its answer from `path`; a mutual like opens the match modal, which is closed so the
 * game goes on. Waiting on the answer, not on a look at the page, since the modal opens only once it is back.
 */
async function likeAndAnswer(page: Page, path: string, like: () => Promise<void>): Promise<void> {
  const answer = page.waitForResponse((r) => r.url().includes(path) && r.request().method() === 'POST');
  await like();
  const { is_match: isMatch } = (await (await answer).json()) as { is_match?: boolean };
  const modal = page.getByTestId('match-modal');
  if (isMatch) {
    await expect(modal).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await expect(modal).toBeHidden();
}

/** Drags the top card with the mouse, `dx` pixels to the side, in small steps as a hand would. */
async function dragCard(page: Page, dx: number): Promise<void> {
  const box = await page.getByTestId('swipe-card').boundingBox();
  if (!box) throw new Error('no card to drag');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + 10, { steps: 12 });
  await page.mouse.up();
}

test('visitors are sent to the login first', async ({ page }) => {
  for (const path of ['/swipe-game', '/match-finder']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirect=${encodeURIComponent(path)}$`));
  }
});

test('swipe game: four likes a day, then the limit; skipping goes on', async ({ browser }, info) => {
  const { page } = await newMemberOnDevice(browser, 'Swipe', info.project.name);
  await page.goto('/swipe-game');
  const card = page.getByTestId('swipe-card');
  const likesLeft = page.getByTestId('swipe-likes-left');
  await expect(card).toBeVisible();
  await expect(likesLeft).toContainText('Likes left today: 4');
  await expectAccessible(page);

  for (let used = 1; used <= 4; used++) {
    const before = await profileIdOf(card);
    const isDrag = used === 1 && info.project.name === 'desktop';
    if (isDrag) {
      // A drag that stops short of the threshold puts the card back; a long one likes.
      await dragCard(page, 40);
      await expect(card).toHaveAttribute('data-profile-id', String(before));
      await expect(likesLeft).toContainText('Likes left today: 4');
    }
    await likeAndAnswer(page, '/api/swipe-game.php', () => (isDrag ? dragCard(page, 320) : page.getByTestId('swipe-like').click()));
    await expect(likesLeft).toContainText(`Likes left today: ${4 - used}`);
    await expect(card).not.toHaveAttribute('data-profile-id', String(before));
  }

  const limit = page.getByTestId('swipe-limit');
  // When new likes come, as a sentence says it: "at 14:30", "tomorrow at 00:00" (never "at Sunday 00:00").
  await expect(limit).toContainText(/You have used your 4 likes for today\. New likes (at|tomorrow at|on \S+ at) \d{2}:\d{2}\./);
  await expect(page.getByTestId('swipe-like')).toBeDisabled();
  const liked = (await (await page.request.get('/api/likes.php')).json()).profiles as { id: number }[];
  expect(liked).toHaveLength(4);

  // Skipping still works.
  const before = await profileIdOf(card);
  await page.getByTestId('swipe-skip').click();
  await expect(card).not.toHaveAttribute('data-profile-id', String(before));
  await expect(page.getByTestId('swipe-like')).toBeDisabled();
  // The server holds the limit too.
  const fifth = await page.request.post('/api/swipe-game.php', {
    headers: { 'x-request-type': 'client' },
    data: { profile_id: await profileIdOf(card), action: 'like' },
  });
  expect(fifth.status()).toBe(429);
  expect((await fifth.json()).error).toBe('swipe_limit');
  await expectAccessible(page);
});

test('match-finder: one card at a time; skip shows another, like works', async ({ browser }, info) => {
  const { page } = await newMemberOnDevice(browser, 'Finder', info.project.name);
  await page.goto('/match-finder');
  const card = page.getByTestId('match-card');
  await expect(card).toBeVisible();
  await expect(card.locator('img').first()).toBeVisible();
  await expectAccessible(page);

  const first = await profileIdOf(card);
  await page.getByTestId('match-skip').click();
  await expect(card).not.toHaveAttribute('data-profile-id', String(first));
  const second = await profileIdOf(card);
  await likeAndAnswer(page, '/api/match-finder.php', () => page.getByTestId('match-like').click());
  await expect(card).not.toHaveAttribute('data-profile-id', String(second));
  await expect(page.getByTestId('match-error')).toHaveCount(0);

  const liked = (await (await page.request.get('/api/likes.php')).json()).profiles as { id: number }[];
  expect(liked.map((p) => p.id)).toEqual([second]);
  // Neither comes back.
  await page.reload();
  await expect(card).toBeVisible();
  expect([first, second]).not.toContain(await profileIdOf(card));
});

test('signup matches: suggestions that lead to profiles, and the way on', async ({ browser }, info) => {
  const { page } = await newMemberOnDevice(browser, 'Newbie', info.project.name);
  await page.goto('/signup-matches');
  const matches = page.getByTestId('signup-match');
  await expect(matches.first()).toBeVisible();
  expect(await matches.count()).toBeLessThanOrEqual(6);
  await expect(page.getByTestId('signup-matches-continue')).toBeVisible();
  await expectAccessible(page);
  await matches.first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(page.getByTestId('member-profile')).toBeVisible();
});
