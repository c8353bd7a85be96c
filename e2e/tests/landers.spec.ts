import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { signInToConsole } from './console-staff';
import { appReady, expect, JOURNEY_TIMEOUT, pageProblems, test } from './fixtures';
import { uniqueEmail } from './mail';

/**
 * The landers (issue 29), as a visitor from paid traffic meets them: the landers' own page (rendered by the
 * server, then taken over by its small script), in every language without an error or a raw key; the
 * tinderswipe lander's fourth swipe opens signup (the signup page on a phone, the modal on desktop); the `lb`
 * query turns the bounce beacon on; and a signup from a lander keeps the traffic source.
 */

const LOCALES = ['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nl', 'no', 'pl', 'sv'] as const;
const LANDERS = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
];
const slugOf = (locale: string) => (locale === 'en' ? 'eng' : locale);
const pathOf = (name: string, locale: string) => `${locale === 'en' ? '' : `/${locale}`}/landers/${name}/${slugOf(locale)}`;

const catalogue = (ns: string) => JSON.parse(readFileSync(new URL(`../../packages/i18n/locales/en/${ns}.json`, import.meta.url), 'utf8'));
const SECTIONS = [...new Set([...Object.keys(catalogue('common')), ...Object.keys(catalogue('landers'))])];
/** A catalogue key shown as it is ("video.title"): what i18next prints for a key it cannot find. */
const RAW_KEY = new RegExp(`\\b(?:${SECTIONS.join('|')})\\.[A-Za-z0-9][\\w.]*\\b`);

/** Drags the top card `dx` pixels sideways, as a finger or a mouse does. */
async function drag(page: Page, card: Locator, dx: number): Promise<void> {
  const box = await card.boundingBox();
  if (!box) throw new Error('no card');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) await page.mouse.move(x + (dx * step) / 8, y + step);
  await page.mouse.up();
}

test('every language: a lander renders and takes over without a console error or a raw key', async ({ page }) => {
  test.setTimeout(JOURNEY_TIMEOUT);
  const errors = pageProblems(page);
  for (const [index, locale] of LOCALES.entries()) {
    const name = LANDERS[index % LANDERS.length];
    const response = await page.goto(pathOf(name, locale));
    expect(response?.status(), locale).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.getByTestId(`lander-${name}`)).toBeVisible();
    await appReady(page);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown is what a visitor reads
    const shown = await page.locator('body').innerText();
    expect(shown.match(RAW_KEY)?.[0] ?? null, `${locale}: a catalogue key is shown instead of its text`).toBeNull();
  }
  expect(errors).toEqual([]);
});

test('tinderswipe: the fourth swipe opens signup (the page on a phone, the modal on desktop)', async ({ page, isMobile }) => {
  const errors = pageProblems(page);
  await page.goto('/landers/tinderswipe?network=e2e&sub1=swipe');
  const stack = page.getByTestId('tinderswipe-stack');
  await appReady(page);
  const card = page.getByTestId('tinderswipe-card');
  const names: string[] = [];
  const nameOf = async () => ((await card.getByRole('heading').textContent()) ?? '').replace(/,.*$/, '');
  // 1: dragged right (a like), 2: dragged left (a pass), 3: the pass button, 4: the like button or the arrow key.
  names.push(await nameOf());
  await drag(page, card, 220);
  await expect(card.getByRole('heading')).not.toContainText(names[0]);
  names.push(await nameOf());
  await drag(page, card, -220);
  await expect(card.getByRole('heading')).not.toContainText(names[1]);
  names.push(await nameOf());
  await page.getByTestId('tinderswipe-pass').click();
  await expect(card.getByRole('heading')).not.toContainText(names[2]);
  await expect(page).toHaveURL(/\/landers\/tinderswipe/);
  if (isMobile) {
    await page.getByTestId('tinderswipe-like').click();
    // About the last profile liked: its signup page.
    await expect(page).toHaveURL(/\/members\/\d+\/signup$/);
    await expect(page.getByTestId('signup-form')).toBeVisible();
  } else {
    await stack.focus();
    await page.keyboard.press('ArrowRight');
    const modal = page.getByTestId('signup-modal');
    await expect(modal).toBeVisible();
    await expect(modal.getByTestId('signup-form')).toBeVisible();
    // Behind it, the stack asks to sign up to go on.
    await expect(page.getByTestId('tinderswipe-gate')).toBeAttached();
  }
  expect(errors).toEqual([]);
});

test('lb in the landing query counts a bounce when the lander is left', async ({ page }) => {
  await page.goto('/landers/video/eng?lb=1&network=e2e');
  await appReady(page);
  const beacon = page.waitForRequest((request) => request.url().endsWith('/api/page-hidden.php') && request.method() === 'POST');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const body = JSON.parse((await beacon).postData() ?? '{}') as { lb?: string; path?: string };
  expect(body).toMatchObject({ lb: '1', path: '/landers/video/eng' });
});

test.describe('a signup from a lander', () => {
  test.skip(({ isMobile }) => isMobile, 'the signup page of a phone is the accounts journey');
  test.describe.configure({ timeout: JOURNEY_TIMEOUT });

  // A person's browser, not a test browser: its visit counts in the reports.
  test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36' });

  test('keeps the traffic source of the landing query through the modal, and the reports count it for its lander', async ({
    page,
    browser,
  }) => {
    await page.goto('/landers/gallery/eng?network=e2e-lander&sub2=b');
    await appReady(page);
    // A traffic-source visitor's footer: no payment logos, no company address (spec §6).
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.getByTestId('payment-logos')).toHaveCount(0);
    await expect(page.getByTestId('company-block')).toHaveCount(0);
    await page.getByTestId('gallery-tile').first().click();
    await page.getByTestId('gallery-focus-cta').click();
    const modal = page.getByTestId('signup-modal');
    const form = modal.getByTestId('signup-form');
    await expect(form).toBeVisible();
    await form.getByLabel('Username').fill('Lander');
    await form.getByLabel('Email address').fill(uniqueEmail('lander', test.info().project.name));
    await form.getByLabel(/^Password/).fill('correct horse battery');
    await form.getByLabel(/Date of birth/).fill('1990-02-03');
    await form.getByLabel(/I accept the/).check();
    await form.getByTestId('signup-submit').click();
    await expect(page).toHaveURL(/\/complete-signup$/);
    const user = await page.request.get('/api/user.php', { headers: { 'x-request-type': 'client' } });
    expect(((await user.json()) as { user: { trafficsource: string | null } }).user.trafficsource).toBe('e2e-lander');

    // An admin sees the visit and the signup under the lander, slug and network.
    const staff = await (await browser.newContext()).newPage();
    await signInToConsole(staff, 'admin@amora.example');
    await staff.goto('/console/reports');
    const row = staff.getByTestId('report-sources').getByRole('row').filter({ hasText: 'e2e-lander' });
    await expect(row.getByRole('rowheader')).toHaveText('gallery');
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText('eng');
    // Visits and signups: at least this one (a retry of this test adds its own).
    for (const column of [2, 3]) expect(Number(await cells.nth(column).textContent())).toBeGreaterThanOrEqual(1);
    await staff.context().close();
  });
});
