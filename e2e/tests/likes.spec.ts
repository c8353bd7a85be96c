import { appReady, expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

test('a like shows on both sides, opening it clears the badge, liking back is a match', async ({ browser, page }, info) => {
  const a = await newMember(browser, 'Aurelia', info.project.name);
  const b = await newMember(browser, 'Bastian', info.project.name);

  // A likes B on B's profile.
  await a.page.goto(`/members/${b.profileId}`);
  const likeButton = a.page.getByTestId('like-button');
  await expect(likeButton).toHaveAttribute('aria-pressed', 'false');
  await expect(likeButton).toHaveText('Like');
  await likeButton.click();
  await expect(likeButton).toHaveAttribute('aria-pressed', 'true');
  await expect(likeButton).toHaveText('Liked');
  await expect(a.page.getByTestId('match-modal')).toHaveCount(0);

  await a.page.goto('/likes/given');
  await expect(a.page.getByTestId('likes-tab-given')).toHaveAttribute('aria-current', 'page');
  await expect(a.page.getByTestId('likes-card')).toHaveCount(1);
  await expect(a.page.getByTestId('likes-card')).toContainText('Bastian');
  await expect(a.page.getByTestId('likes-card')).toHaveAttribute('href', `/members/${b.profileId}`);
  // Each card shows the age, never a catalogue key (both members were born on the same day).
  const { age } = (await (await a.page.request.get('/api/likes.php')).json()).profiles[0] as { age: number };
  expect(age).toBeGreaterThanOrEqual(18);
  await expect(a.page.getByTestId('likes-card')).toContainText(`Bastian, ${age}`);
  await expectTranslated(a.page);

  // B sees one new like in the top bar and in the tab title.
  await b.page.goto('/members');
  await expect(b.page.getByTestId('likes-badge')).toContainText('1');
  await expect(b.page).toHaveTitle(/^\(1\) /);
  await b.page.getByTestId('nav-likes').click();
  await expect(b.page).toHaveURL(/\/likes$/);
  const card = b.page.getByTestId('likes-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Aurelia');
  await expect(card.getByTestId('like-new-badge')).toHaveText('New');
  await expect(card).toContainText(`Aurelia, ${age}`);
  await expectTranslated(b.page);
  await expectAccessible(b.page);

  // Opening A from the likes page marks the like as seen: the badge goes.
  await card.click();
  await expect(b.page).toHaveURL(new RegExp(`/likes/m/${a.profileId}$`));
  await expect(b.page.getByTestId('member-profile')).toContainText('Aurelia');
  await expect(b.page.getByTestId('likes-badge')).toHaveCount(0);
  await expect(b.page).not.toHaveTitle(/^\(\d+\) /);

  // B likes A back: a match.
  await b.page.getByTestId('like-button').click();
  const modal = b.page.getByTestId('match-modal');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText("It's a match!");
  await expect(modal).toContainText('Aurelia');
  await expectAccessible(b.page);
  // A click anywhere closes it.
  await modal.getByRole('heading').click();
  await expect(modal).toHaveCount(0);
  await expect(b.page.getByTestId('like-button')).toHaveAttribute('aria-pressed', 'true');

  // Both see the match.
  await b.page.goto('/likes/mutual');
  await expect(b.page.getByTestId('likes-card')).toContainText('Aurelia');
  await expect(b.page.getByTestId('match-badge')).toBeVisible();
  await expectTranslated(b.page);
  await a.page.goto('/likes');
  await expect(a.page.getByTestId('likes-card')).toContainText('Bastian');
  await expect(a.page.getByTestId('likes-card').getByTestId('like-new-badge')).toBeVisible();

  // A visitor who clicks like is asked to sign up (a modal on desktop, the signup page on phones).
  await page.goto(`/members/${b.profileId}`);
  await page.getByTestId('like-button').click();
  if (info.project.name === 'phone') await expect(page).toHaveURL(new RegExp(`/members/${b.profileId}/signup$`));
  else await expect(page.getByTestId('signup-modal')).toBeVisible();
});

test('the match modal shows again after it was closed with Escape', async ({ browser }, info) => {
  const a = await newMember(browser, 'Dara', info.project.name);
  const b = await newMember(browser, 'Emil', info.project.name);
  const liked = await b.page.request.post('/api/like.php', {
    headers: { 'x-request-type': 'client' },
    data: { profile_id: a.profileId, source: 'profile' },
  });
  expect(liked.ok()).toBe(true);

  await a.page.goto(`/members/${b.profileId}`);
  const likeButton = a.page.getByTestId('like-button');
  const modal = a.page.getByTestId('match-modal');
  await likeButton.click();
  await expect(modal).toBeVisible();
  await expect(modal).toContainText("It's a match!");
  await a.page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // On the same page, without a reload: take the like back and like again, a match again.
  await likeButton.click();
  await expect(likeButton).toHaveAttribute('aria-pressed', 'false');
  await likeButton.click();
  await expect(likeButton).toHaveAttribute('aria-pressed', 'true');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('Emil');
  await a.page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // A third time; its button closes it and opens the profile.
  await likeButton.click();
  await expect(likeButton).toHaveAttribute('aria-pressed', 'false');
  await likeButton.click();
  await expect(modal).toBeVisible();
  await modal.getByTestId('match-view-profile').click();
  await expect(modal).toBeHidden();
  await expect(a.page.getByTestId('member-profile')).toContainText('Emil');
});

test('the auto-like comes 20 s into the members area, and ?t=120 opens the like modal two minutes in', async ({ browser }, info) => {
  const member = await newMember(browser, 'Carmen', info.project.name, { keepAutoLike: true });
  const { page } = member;
  await page.clock.install();
  await page.goto('/members');
  await appReady(page);
  await expect(page.getByTestId('nav-likes')).toBeVisible();
  await expect(page.getByTestId('likes-badge')).toHaveCount(0);

  // 20 s after entering the members area a fictional profile likes the member: the match modal shows it.
  await page.clock.runFor(21_000);
  const modal = page.getByTestId('match-modal');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('likes you!');
  await expect(modal.getByTestId('match-fictional')).toBeVisible();
  // The likes reload 500 ms later: one new like.
  await page.clock.runFor(1_000);
  await expect(page.getByTestId('likes-badge')).toContainText('1');
  // A click anywhere closes the modal; the like stays new.
  await modal.getByRole('heading').click();
  await expect(modal).toHaveCount(0);
  await expect(page.getByTestId('likes-badge')).toContainText('1');
  const likes = await (await page.request.get('/api/likes.php')).json();
  const liker = likes.liked_by[0] as { id: number; name: string; is_fictional: boolean };
  expect(liker.is_fictional).toBe(true);

  // ?t=120: the like modal opens after two minutes, with a button to the newest like. The page's clock also
  // runs on by itself, and on a busy machine loading the page can take seconds: a short t would be over before
  // the test looks.
  await page.goto('/?t=120');
  await expect(page).toHaveURL(/\/members$/);
  await appReady(page);
  await expect(page.getByTestId('nav-likes')).toBeVisible();
  const likeModal = page.getByTestId('like-modal');
  await page.clock.runFor(100_000);
  await expect(likeModal).toHaveCount(0);
  await page.clock.runFor(21_000);
  await expect(likeModal).toBeVisible();
  await expect(likeModal).toContainText('Someone likes you');
  await expectAccessible(page);
  const view = likeModal.getByTestId('like-modal-view');
  await expect(view).toHaveText('View profile');
  await view.click();
  await expect(page).toHaveURL(new RegExp(`/likes/m/${liker.id}$`));
  await expect(page.getByTestId('member-profile')).toContainText(liker.name);
  await expect(page.getByTestId('likes-badge')).toHaveCount(0);
  // Only once a day: the next page load brings no second auto-like.
  const again = page.waitForResponse('**/api/auto-like.php');
  await page.goto('/members');
  await appReady(page);
  await expect(page.getByTestId('nav-likes')).toBeVisible();
  await page.clock.runFor(21_000);
  expect(await (await again).json()).toEqual({ profile: null });
  await expect(page.getByTestId('match-modal')).toHaveCount(0);
});
