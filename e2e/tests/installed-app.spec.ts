import type { BrowserContext, Page } from '@playwright/test';
import { expect, logInAsDemo, test } from './fixtures';

/**
 * The installed app (spec §2): the page runs in the app's own window, where `(display-mode: standalone)` matches.
 * A browser under test cannot be installed into, so the page is told so before any of its scripts run.
 */
async function runAsInstalledApp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const matchMedia = window.matchMedia.bind(window);
    window.matchMedia = (query: string) =>
      query.replace(/\s/g, '') === '(display-mode:standalone)' ? matchMedia('all') : matchMedia(query);
  });
}

const backButton = (page: Page) => page.getByTestId('top-bar').getByRole('button', { name: 'Back' });

test.describe('installed app', () => {
  test('the back button takes a member from a profile back to the page they came from, only where there is one', async ({ page }) => {
    await runAsInstalledApp(page.context());
    await logInAsDemo(page);
    // The members page is neither a profile, the likes nor the credits: no back button.
    await expect(page.getByTestId('member-card').first()).toBeVisible();
    await expect(backButton(page)).toHaveCount(0);

    await page.getByTestId('member-card').first().click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    const profile = page.url();
    await expect(page.getByTestId('member-profile')).toHaveAttribute('aria-busy', 'false');
    await expect(backButton(page)).toBeVisible();
    const box = await backButton(page).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);

    await backButton(page).click();
    await expect(page).toHaveURL(/\/members$/);
    await expect(page.getByTestId('member-card').first()).toBeVisible();

    // The same profile opened as the app's first page (a link from outside): nowhere to go back to in the app.
    await page.goto(profile);
    await expect(page.getByTestId('member-profile')).toHaveAttribute('aria-busy', 'false');
    await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
    await expect(backButton(page)).toHaveCount(0);
  });

  test('a browser tab shows no back button: the browser has its own', async ({ page }) => {
    await logInAsDemo(page);
    await page.getByTestId('member-card').first().click();
    await expect(page.getByTestId('member-profile')).toHaveAttribute('aria-busy', 'false');
    await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
    await expect(backButton(page)).toHaveCount(0);
  });

  test("every page links the site's manifest, which Chromium reads without errors, with icons that load", async ({ page }) => {
    await page.goto('/pages/terms');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/api/manifest.webmanifest');

    const cdp = await page.context().newCDPSession(page);
    const { url, errors } = await cdp.send('Page.getAppManifest');
    expect(new URL(url).pathname).toBe('/api/manifest.webmanifest');
    expect(errors).toEqual([]);

    const answer = await page.request.get(url);
    expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = await answer.json();
    expect(manifest).toMatchObject({ name: 'Amora', start_url: '/members', scope: '/', display: 'standalone', theme_color: '#c8213a' });
    expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      // Loaded as the browser loads an image, then measured.
      const size = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return `${image.naturalWidth}x${image.naturalHeight}`;
      }, icon.src);
      expect(size, icon.src).toBe(icon.sizes);
    }

    // What stands between the site and installing it may be the service worker or this test's private window,
    // never the manifest or its icons.
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    const manifestErrors = installabilityErrors.map((error) => error.errorId).filter((id) => /manifest|icon|start-url|display/.test(id));
    expect(manifestErrors).toEqual([]);
  });
});
