// What the ui-screenshots scripts share: the two sizes of docs/ui.md, Debian's Chromium (CHROMIUM_PATH) driven by
// Playwright as in the e2e journeys, and a picture of a settled page.
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright';

export const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
];

/** The base URL and output folder from the command line, the output folder made, and a launched browser. */
export async function openScreenshots(defaultBase) {
  const base = process.argv[2] ?? defaultBase;
  const out = process.argv[3] ?? 'docs/screenshots';
  await mkdir(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  /** Fonts loaded, images decoded, animations over: the picture of a settled page, as `<out>/<file>.png`. */
  async function shoot(page, file, fullPage = false) {
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${out}/${file}.png`, fullPage });
    console.log(`${out}/${file}.png`);
  }
  return { base, out, browser, shoot };
}
