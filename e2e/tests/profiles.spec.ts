import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

async function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 1100, channels: 3, background: colour } })
    .composite([{ input: Buffer.from(`<svg width="900" height="1100"><circle cx="450" cy="500" r="260" fill="white"/></svg>`) }])
    .jpeg()
    .toBuffer();
}

async function uploadPhoto(page: Page, colour: string, name: string): Promise<void> {
  const before = await page.getByTestId('own-photo').count();
  await page.locator('#photo-upload').setInputFiles({ name, mimeType: 'image/jpeg', buffer: await photo(colour) });
  await expect(page.getByTestId('own-photo')).toHaveCount(before + 1);
}

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

test('fill the profile, upload three photos, the fourth is refused, pick the main photo', async ({ browser }, info) => {
  const { page } = await newMember(browser, 'Kim', info.project.name);
  await page.goto('/profile');
  await expect(page.getByTestId('photo-alert')).toHaveCount(0);

  await page.getByLabel('A few words about yourself').fill('I like sailing and bad puns.');
  await page.getByLabel('Gender').selectOption('woman');
  await page.getByLabel('Eye colour').selectOption('green');
  await page.getByText('Music', { exact: true }).click();
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-saved')).toBeVisible();

  // The progress bar shows while a photo travels. On loopback a small photo can arrive between two of the
  // test's looks at the page, so the first upload is held on its way until the bar has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    '**/api/photos.php',
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  await page.locator('#photo-upload').setInputFiles({ name: 'one.jpg', mimeType: 'image/jpeg', buffer: await photo('#c8213a') });
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  release();
  await expect(page.getByTestId('own-photo')).toHaveCount(1);
  await expect(page.getByTestId('upload-progress')).toHaveCount(0);
  await uploadPhoto(page, '#1e7e45', 'two.png');
  await uploadPhoto(page, '#f27a1a', 'three.jpg');
  await expect(page.getByTestId('photo-limit')).toContainText('3 photos');
  await expect(page.locator('#photo-upload')).toHaveCount(0);
  // The server refuses a fourth too, whatever the page shows.
  const refused = await page.request.post('/api/photos.php', {
    headers: { 'x-request-type': 'client' },
    multipart: { photo: { name: 'four.jpg', mimeType: 'image/jpeg', buffer: await photo('#000000') } },
  });
  expect(refused.status()).toBe(409);

  await page.getByTestId('make-main').first().click();
  await expect(page.getByTestId('own-photo').first()).toContainText('Main photo');
  await expectAccessible(page);
});

test('a free member sees locked photos, a premium member sees them all, and a block shuts the door', async ({ browser }, info) => {
  const owner = await newMember(browser, 'Noor', info.project.name);
  await owner.page.goto('/profile');
  await uploadPhoto(owner.page, '#c8213a', 'a.jpg');
  await uploadPhoto(owner.page, '#1e7e45', 'b.jpg');
  await uploadPhoto(owner.page, '#f27a1a', 'c.jpg');

  const viewer = await newMember(browser, 'Sam', info.project.name);
  await viewer.page.goto(`/members/${owner.profileId}`);
  await expect(viewer.page.getByTestId('member-profile')).toContainText('Noor');
  await expect(viewer.page.getByTestId('open-photo')).toHaveCount(1);
  await expect(viewer.page.getByTestId('locked-photo')).toHaveCount(2);
  await expect(viewer.page.getByTestId('locked-photo').first()).toContainText('This feature is only for Premium members');
  await expectAccessible(viewer.page);

  await viewer.page.request.post('/api/dev/premium.php', { headers: { 'x-request-type': 'client' }, data: { paid: true } });
  await viewer.page.reload();
  await expect(viewer.page.getByTestId('open-photo')).toHaveCount(3);
  await expect(viewer.page.getByTestId('locked-photo')).toHaveCount(0);

  await owner.page.goto(`/members/${viewer.profileId}`);
  await owner.page.getByTestId('block-toggle').click();
  // Blocking asks first.
  await owner.page
    .getByRole('dialog', { name: /Block Sam/ })
    .getByTestId('confirm-ok')
    .click();
  await expect(owner.page.getByTestId('block-toggle')).toHaveText('Unblock');
  await viewer.page.reload();
  await expect(viewer.page.getByTestId('blocked-message')).toHaveText('You are blocked by Noor');
  await expect(viewer.page.getByTestId('member-profile')).toHaveCount(0);
});

test('a visitor sees the main photo and is asked to log in for more', async ({ page, browser }, info) => {
  const owner = await newMember(browser, 'Lea', info.project.name);
  await owner.page.goto('/profile');
  await uploadPhoto(owner.page, '#c8213a', 'a.jpg');
  await uploadPhoto(owner.page, '#1e7e45', 'b.jpg');
  await page.goto(`/members/${owner.profileId}`);
  await expect(page.getByTestId('open-photo')).toHaveCount(1);
  await expect(page.getByTestId('locked-photo')).toHaveCount(0);
  await expect(page.getByTestId('login-for-photos')).toBeVisible();
});
