import { expect, test } from './fixtures';

/**
 * A visitor's landing page comes rendered by the server (apps/web/src/entry-server.tsx): it reads and paints
 * before any script has run, and the app then takes it over (hydration) without rendering it again.
 */
test.describe('the landing page before and after the app starts', () => {
  test('shows its first screen to a browser that runs no script', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Triff Singles in deiner Nähe');
    await expect(page.getByTestId('cta-signup')).toHaveText('Kostenlos registrieren');
    // A first visit: the entry warning is on the first screen already, open.
    await expect(page.getByTestId('entry-warning')).toBeVisible();
    await context.close();
  });

  test('leaves the entry warning off the first screen of a visitor who answered it', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    await context.addCookies([{ name: 'hide-entry-warning', value: '1', url: baseURL as string }]);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('cta-signup')).toBeVisible();
    await expect(page.getByTestId('entry-warning')).toHaveCount(0);
    await context.close();
  });

  test.describe('a first visit', () => {
    test.use({ firstVisit: true });

    test('is taken over by the app without an error: the warning becomes a modal, then the signup opens', async ({ page, isMobile }) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.goto('/');
      const heading = page.getByRole('heading', { level: 1 });
      const before = await heading.elementHandle();
      const warning = page.getByTestId('entry-warning');
      await expect(warning).toBeVisible();
      // Modal once the app runs: the page behind is inert.
      await expect.poll(() => warning.evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
      await warning.getByTestId('entry-warning-accept').click();
      await expect(warning).toHaveCount(0);
      // The heading the server sent is the one the app kept: hydrated, not rendered again.
      expect(await before?.evaluate((node) => node.isConnected)).toBe(true);
      await page.getByTestId('cta-signup').click();
      // On a phone the signup is a page of its own.
      if (isMobile) await expect(page).toHaveURL(/\/signup$/);
      else await expect(page.getByTestId('signup-modal')).toBeVisible();
      // The answer is remembered for the server too.
      expect((await page.context().cookies()).some((c) => c.name === 'hide-entry-warning')).toBe(true);
      expect(problems).toEqual([]);
    });
  });

  test('takes over the page of a visitor who answered the warning before it was a cookie, without an error', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL });
    await context.addInitScript(() => window.localStorage.setItem('hide-entry-warning', String(Date.now())));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto('/');
    // The server did not know: the warning came with the page, and closes once the app has read the storage.
    await expect(page.getByTestId('entry-warning')).toHaveCount(0);
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'hide-entry-warning')).toBe(true);
    await page.getByTestId('cta-signup').click();
    expect(problems).toEqual([]);
    await context.close();
  });
});
