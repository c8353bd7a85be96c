// Screenshots of the main screens at phone and desktop size for docs/ui.md, from a running built server:
//   npm run build && PORT=3180 DATA_DIR=$(mktemp -d) npm run serve   (a fresh data folder seeds the demo members)
//   npx node scripts/ui-screenshots.mjs [base URL, default http://localhost:3180] [output folder, default docs/screenshots]
// With UI_GALLERY set to the dev server's gallery (`npm run dev -w @amora/web` → http://localhost:5173/ui-gallery.html),
// also the design system's pieces (apps/web/src/ui-gallery).
// Chromium is Debian's /usr/bin/chromium (CHROMIUM_PATH), driven by Playwright, as in the e2e journeys.
import { openScreenshots, SIZES } from './ui-screenshots-shared.mjs';

const { base, out, browser, shoot } = await openScreenshots('http://localhost:3180');

for (const size of SIZES) {
  const context = await browser.newContext({ ...size, locale: 'en-GB' });
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shoot(page, `index-${size.name}`);

  await page.goto(`${base}/login`);
  await page.getByLabel('Email address').fill('demo@amora.example');
  await page.getByLabel('Password').fill('amora-demo-2026');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/members/);
  await page.locator('main').getByRole('link').first().waitFor();
  await shoot(page, `members-${size.name}`);

  const profileLink = page.locator('main a[href*="/members/"]').first();
  await profileLink.click();
  await page.waitForURL(/\/members\/\d+/);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shoot(page, `profile-${size.name}`);

  // A profile's second photo: locked for a member who is not premium (the demo member is not).
  const client = { headers: { 'x-request-type': 'client' } };
  const { results } = await (await page.request.get(`${base}/api/search.php`, client)).json();
  for (const card of results) {
    const { profile } = await (await page.request.get(`${base}/api/member.php?id=${card.id}`, client)).json();
    if (profile.photos.length < 2) continue;
    await page.goto(`${base}/members/${card.id}`);
    await page.locator('[data-testid="member-profile"][aria-busy="false"]').waitFor();
    if (size.name === 'desktop') await page.getByRole('button', { name: 'Next photo' }).click();
    else await page.locator('.gallery-track').evaluate((el) => el.scrollTo({ left: el.clientWidth }));
    await page.waitForTimeout(600);
    await shoot(page, `profile-photo-2-${size.name}`);
    break;
  }
  await page.getByTestId('block-toggle').click();
  await page.getByRole('dialog').waitFor();
  await shoot(page, `profile-block-${size.name}`);
  await page.getByTestId('confirm-cancel').click();

  await page.goto(`${base}/likes`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shoot(page, `likes-${size.name}`);
  await page.goto(`${base}/likes/mutual`);
  await page.getByTestId('likes-empty').waitFor();
  await shoot(page, `likes-empty-${size.name}`);

  // The search's filters in their sheet (phones), and a search that finds nobody.
  await page.goto(`${base}/members`);
  await page.getByTestId('member-card').first().waitFor();
  if (size.name === 'phone') {
    await page.getByTestId('search-filters-open').click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, 'members-filters-phone');
  }
  await page.goto(`${base}/members?gender=nonbinary&country=NZ&min_age=60&max_age=61`);
  await page.getByTestId('search-empty').waitFor();
  await shoot(page, `members-empty-${size.name}`);
  await context.close();
}
// A new member on a phone: the activation reminder and the photo alert in one strip (at most a quarter of the screen).
{
  const context = await browser.newContext({ ...SIZES[0], locale: 'en-GB' });
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  const page = await context.newPage();
  await page.goto(`${base}/signup`);
  const form = page.getByTestId('signup-form');
  await form.getByLabel('Username').fill(`Robin${Date.now() % 10000}`);
  await form.getByLabel('Email address').fill(`robin${Date.now()}@example.com`);
  await form.getByLabel(/^Password/).fill('a-long-password-2026');
  await form.getByLabel(/Date of birth/).fill('1992-04-11');
  await form.getByLabel(/I accept the/).check();
  await form.getByTestId('signup-submit').click();
  await page.getByTestId('complete-signup').waitFor();
  await page.goto(`${base}/members`);
  await page.getByTestId('activation-alert').waitFor();
  const strip = await page.getByTestId('banner-strip').boundingBox();
  console.log(`banner strip: ${Math.round(strip?.height ?? 0)} px of ${SIZES[0].viewport.height}`);
  await shoot(page, 'banners-phone');
  await context.close();
}

const gallery = process.env.UI_GALLERY;
if (gallery) {
  for (const size of SIZES) {
    const context = await browser.newContext({ ...size, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(gallery);
    await page.getByRole('heading', { level: 1, name: 'Amora UI' }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${out}/ui-gallery-${size.name}.png`, fullPage: true });
    console.log(`${out}/ui-gallery-${size.name}.png`);
    await page.getByTestId('show-toasts').click();
    await page.waitForTimeout(300);
    await shoot(page, `ui-toasts-${size.name}`);
    await page.reload();
    await page.getByTestId('show-confirm').click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, `ui-confirm-${size.name}`);
    await page.reload();
    await page.getByTestId('show-sheet').click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, `ui-sheet-${size.name}`);
    await context.close();
  }
}
await browser.close();
