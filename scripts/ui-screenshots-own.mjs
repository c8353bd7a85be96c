// Screenshots of the member's own screens at phone and desktop size for docs/ui.md: match finder, swipe game,
// own profile with its photo manager, settings, and a new member's signup matches. From a running built server
// with a fresh data folder (the demo members), like scripts/ui-screenshots.mjs:
//   npm run build && PORT=3180 DATA_DIR=$(mktemp -d) npm run serve
//   npx node scripts/ui-screenshots-own.mjs [base URL, default http://localhost:3180] [output folder, default docs/screenshots]
// It also measures that the match finder's like and skip buttons are on the first screen (no scrolling) and fails
// when they are not.
import { openScreenshots, SIZES } from './ui-screenshots-shared.mjs';

const { base, browser, shoot } = await openScreenshots('http://localhost:3180');

/** Fails unless the element lies wholly inside the first screen, above the bottom tab bar if there is one. */
async function assertOnFirstScreen(page, testId, size) {
  const box = await page.getByTestId(testId).boundingBox();
  const bar = (await page.getByTestId('tab-bar').count()) > 0 ? await page.getByTestId('tab-bar').boundingBox() : null;
  const limit = bar ? bar.y : size.viewport.height;
  const bottom = Math.round((box?.y ?? 0) + (box?.height ?? 0));
  const ok = box !== null && box.y >= 0 && bottom <= limit;
  console.log(
    `${size.name} ${size.viewport.width}×${size.viewport.height}: ${testId} ends at ${bottom} px, visible area ends at ${Math.round(limit)} px: ${ok ? 'ok' : 'NOT VISIBLE'}`,
  );
  if (!ok) process.exitCode = 1;
}

async function login(page) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email address').fill('demo@amora.example');
  await page.getByLabel('Password').fill('amora-demo-2026');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/members/);
}

for (const size of SIZES) {
  const context = await browser.newContext({ ...size, locale: 'en-GB' });
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  const page = await context.newPage();
  await login(page);

  await page.goto(`${base}/match-finder`);
  await page.getByTestId('match-card').waitFor();
  await page.evaluate(() => document.fonts.ready);
  await assertOnFirstScreen(page, 'match-like', size);
  await assertOnFirstScreen(page, 'match-skip', size);
  await shoot(page, `match-finder-${size.name}`);

  await page.goto(`${base}/swipe-game`);
  await page.getByTestId('swipe-card').waitFor();
  await shoot(page, `swipe-game-${size.name}`);

  // Two of the demo portraits as the member's own photos, so the profile shows its photo grid.
  const portraits = await page.locator('[data-testid="swipe-card"] img, .swipe-card img').evaluateAll((imgs) => imgs.map((i) => i.src));
  await page.goto(`${base}/profile`);
  await page.getByTestId('photo-manager').waitFor();
  for (const src of portraits.slice(0, 2)) {
    if ((await page.getByTestId('own-photo').count()) >= 2) break;
    const before = await page.getByTestId('own-photo').count();
    const photo = await page.request.get(src);
    const type = photo.headers()['content-type'] ?? 'image/webp';
    await page.locator('#photo-upload').setInputFiles({ name: `me.${type.split('/')[1]}`, mimeType: type, buffer: await photo.body() });
    await page.getByTestId('own-photo').nth(before).waitFor();
  }
  await page.waitForTimeout(5500); // the upload toasts have gone
  await shoot(page, `own-profile-${size.name}`);
  // The drop zone as a file is dragged over it.
  await page.getByTestId('photo-drop').scrollIntoViewIfNeeded();
  await page.getByTestId('photo-drop').dispatchEvent('dragenter', { dataTransfer: await page.evaluateHandle(() => new DataTransfer()) });
  await shoot(page, `own-profile-drop-${size.name}`);

  await page.goto(`${base}/settings`);
  await page.getByTestId('delete-account').waitFor();
  await shoot(page, `settings-${size.name}`);
  await context.close();
}

// A new member just after complete signup: the signup matches.
for (const size of SIZES) {
  const context = await browser.newContext({ ...size, locale: 'en-GB' });
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  const page = await context.newPage();
  await page.goto(`${base}/signup`);
  const form = page.getByTestId('signup-form');
  const stamp = Date.now();
  await form.getByLabel('Username').fill(`Sam${stamp % 10000}`);
  await form.getByLabel('Email address').fill(`sam${stamp}@example.com`);
  await form.getByLabel(/^Password/).fill('a-long-password-2026');
  await form.getByLabel(/Date of birth/).fill('1990-06-02');
  await form.getByLabel(/I accept the/).check();
  await form.getByTestId('signup-submit').click();
  await page.getByTestId('complete-signup').waitFor();
  await page.goto(`${base}/signup-matches`);
  await page.getByTestId('signup-match').first().waitFor();
  await shoot(page, `signup-matches-${size.name}`);
  await context.close();
}
await browser.close();
