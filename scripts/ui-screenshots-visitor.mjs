// Screenshots of the visitor's screens at phone and desktop size for docs/ui.md, from a running built server:
//   npm run build && PORT=3220 DATA_DIR=$(mktemp -d) npm run serve
//   npx node scripts/ui-screenshots-visitor.mjs [base URL, default http://localhost:3220] [output folder, default docs/screenshots]
// Index, signup (modal on desktop, page on phones), login, reset password (both steps), activation done and failed,
// terms, FAQ, complaints, a lander and the 404 page. Chromium is Debian's /usr/bin/chromium (CHROMIUM_PATH).
import { openScreenshots, SIZES } from './ui-screenshots-shared.mjs';

const { base, browser, shoot } = await openScreenshots('http://localhost:3220');
const only = process.env.ONLY?.split(',');

const SCREENS = [
  ['index', '/', null, true],
  ['login', '/login'],
  ['reset-password', '/reset-password'],
  ['reset-password-do', '/reset-password/do?token=x'],
  ['activate-done', '/activate/done'],
  ['activate-error', '/activate/error'],
  ['terms', '/pages/terms'],
  ['faq', '/pages/faq'],
  ['complaints', '/complaints'],
  ['lander', '/landers/video'],
  ['not-found', '/no-such-page'],
];

for (const size of SIZES) {
  const context = await browser.newContext({ ...size, locale: 'en-GB' });
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  const page = await context.newPage();
  for (const [name, path, , full] of SCREENS) {
    if (only && !only.includes(name)) continue;
    await page.goto(`${base}${path}`);
    await page.locator('h1').first().waitFor();
    await shoot(page, `visitor-${name}-${size.name}`, Boolean(full));
  }
  if (!only || only.includes('signup')) {
    await page.goto(`${base}/`);
    await page.getByTestId('cta-signup').click();
    await page.getByTestId('signup-form').waitFor();
    await shoot(page, `visitor-signup-${size.name}`);
  }
  await context.close();
}
await browser.close();
