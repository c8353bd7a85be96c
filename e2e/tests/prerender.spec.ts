import { appReady, expect, JOURNEY_TIMEOUT, logInAsDemo, pageProblems, test } from './fixtures';

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
      const problems = pageProblems(page);
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
    const problems = pageProblems(page);
    await page.goto('/');
    // The server did not know: the warning came with the page, and closes once the app has read the storage.
    await expect(page.getByTestId('entry-warning')).toHaveCount(0);
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'hide-entry-warning')).toBe(true);
    await page.getByTestId('cta-signup').click();
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * A member's search, a profile and the swipe game come rendered by the server with the answers they show
 * (entry-server.tsx, prerenderMember): they paint before the app's code has loaded, in the layout of the screen
 * (the phone's with its tab bar), and the app then takes them over (hydration) from the same answers, without an
 * error.
 */
test.describe("a member's pages before and after the app starts", () => {
  test('show their first screen before the app runs, and work once it does', async ({ page, isMobile }) => {
    test.setTimeout(JOURNEY_TIMEOUT);
    await logInAsDemo(page);

    // The app's code kept away (in a tab of its own): what shows is the server's render alone.
    const bare = await page.context().newPage();
    await bare.route('**/assets/start-*.js', (route) => route.abort());
    await bare.goto('/members');
    await expect(bare.getByTestId('member-card').first()).toBeVisible();
    await expect(bare.getByTestId('num-results')).toContainText(/\d+/);
    // The first screen's cards (search results, then similar ones); the others join once the app runs.
    await expect(bare.getByTestId('member-card')).not.toHaveCount(0);
    expect(await bare.getByTestId('member-card').count()).toBeLessThanOrEqual(8);
    if (isMobile) await expect(bare.getByTestId('tab-bar')).toBeVisible();
    else await expect(bare.getByTestId('tab-bar')).toHaveCount(0);
    await bare.goto('/swipe-game');
    await expect(bare.getByTestId('swipe-stack')).toBeVisible();
    await bare.close();

    const problems = pageProblems(page);
    await page.goto('/members');
    const card = await page.getByTestId('member-card').first().elementHandle();
    const firstName = await card?.textContent();
    // The same first card once the app runs: the server's, taken over (hydrated), not rendered again.
    await appReady(page);
    expect(await card?.evaluate((node) => node.isConnected)).toBe(true);
    await expect(page.getByTestId('member-card').first()).toHaveText(firstName ?? '');
    await expect.poll(() => page.getByTestId('member-card').count()).toBeGreaterThan(8);
    await page.getByTestId('member-card').first().click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    await expect(page.getByTestId('member-profile')).toBeVisible();
    const profileUrl = page.url();
    await page.goto(profileUrl);
    await expect(page.getByTestId('member-profile')).toBeVisible();
    await expect(page.getByTestId('member-profile').getByRole('heading', { level: 1 })).toBeVisible();
    expect(problems).toEqual([]);

    // A banner dismissed in the app stays off the server's render of the next page as well.
    await page.goto('/members');
    await expect(page.getByTestId('photo-alert')).toHaveCount(1);
    // On a phone the strip shows one banner at a time: the photo alert is brought to the front first.
    for (let i = 0; i < 4 && !(await page.getByTestId('photo-alert').isVisible()); i++) {
      await page.getByTestId('banner-strip-next').click();
    }
    await page.getByTestId('photo-alert').getByRole('button').click();
    await expect(page.getByTestId('photo-alert')).toHaveCount(0);
    const next = await page.context().newPage();
    await next.route('**/assets/start-*.js', (route) => route.abort());
    await next.goto('/members');
    await expect(next.getByTestId('member-card').first()).toBeVisible();
    await expect(next.getByTestId('photo-alert')).toHaveCount(0);
    await next.close();
  });
});
