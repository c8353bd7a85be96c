import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, expect, type Locator, type Page } from '@playwright/test';

/**
 * The entry warning answered, as a returning visitor has it: in the browser's storage and in the cookie the
 * server reads to render the first screen without it. With it the push alert closed (`withPushAlert: false`), as a
 * member who has seen it has it: Chromium here can take pushes, so it would join every member's banners;
 * push.spec.ts looks at it.
 */
export async function answerEntryWarning(context: BrowserContext, { withPushAlert = false } = {}): Promise<void> {
  await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
  if (!withPushAlert) await context.addInitScript(() => window.localStorage.setItem('hide-push-notification-alert', String(Date.now())));
  await context.addCookies([{ name: 'hide-entry-warning', value: '1', url: base.info().project.use.baseURL as string }]);
}

/** Pages start with the entry warning already answered, unless a test asks for a first visit. */
export const test = base.extend<{ firstVisit: boolean }>({
  firstVisit: [false, { option: true }],
  page: async ({ page, firstVisit }, use) => {
    if (!firstVisit) await answerEntryWarning(page.context());
    await use(page);
  },
});

export { expect };

/**
 * The time limit of a journey through several pages (signups, mails, photos), against the config's 60 s for a
 * look at one page. With other builds and benchmarks on the same two cores (load average 20 to 26) journeys
 * took 40 to 177 s; a limit only ends a test that is stuck, so it can be generous.
 */
export const JOURNEY_TIMEOUT = 300_000;

/** Logs the demo member in through the login page, as a member would; ends on the search, where login leads. */
export async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill('demo@amora.example');
  await page.getByLabel('Password').fill('amora-demo-2026');
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
}

/**
 * Waits until the app has taken the page over. A page the server rendered shows its content before the app runs,
 * so what is visible says nothing of the app's timers yet: a journey that runs the page's clock waits for this.
 */
export async function appReady(page: Page): Promise<void> {
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
}

/**
 * The page's uncaught errors and console errors from now on, with the address of a failed load. A member's photo
 * that fails to load is left out: the journeys share one server, and another one may delete its member or photo
 * between the page's list and the image's request.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    if (/^Failed to load resource/.test(message.text()) && url.includes('/api/photo.php?')) return;
    problems.push(url ? `${message.text()} (${url})` : message.text());
  });
  return problems;
}

/** axe must find no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const catalogue = (ns: string) => JSON.parse(readFileSync(new URL(`../../packages/i18n/locales/en/${ns}.json`, import.meta.url), 'utf8'));
const SECTIONS = [...new Set([...Object.keys(catalogue('common')), ...Object.keys(catalogue('pages'))])];
/** A catalogue key shown as it is ("members.age"): what i18next prints for a key it cannot find. */
const RAW_KEY = new RegExp(`\\b(?:${SECTIONS.join('|')})\\.[A-Za-z][\\w.]*`);

/** No text in `scope` is a raw catalogue key. */
export async function expectTranslated(scope: Page | Locator): Promise<void> {
  const target = 'goto' in scope ? scope.locator('body') : scope;
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, one line per block, is what a member reads
  const text = await target.innerText();
  expect(text.match(RAW_KEY)?.[0] ?? null, 'a catalogue key is shown instead of its text').toBeNull();
}
