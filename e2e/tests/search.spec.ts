import { devices } from '@playwright/test';
import { expect, expectAccessible, JOURNEY_TIMEOUT, logInAsDemo, test } from './fixtures';
import { newMember } from './members';

test('search with filters, open page 2, open a profile and come back to the same results', async ({ page }, info) => {
  test.setTimeout(JOURNEY_TIMEOUT);
  await logInAsDemo(page);
  // The day's auto-like is taken now, so its match modal cannot come over the search 20 s in on a slow machine.
  const autoLike = await page.request.get('/api/auto-like.php', { headers: { 'x-request-type': 'client' } });
  expect(autoLike.ok()).toBe(true);

  // On a phone the filters are in a sheet, behind the Filters button.
  if (info.project.name === 'phone') await page.getByTestId('search-filters-open').click();
  await page.getByLabel('Gender', { exact: true }).selectOption('woman');
  // The demo member's search defaults (from complete signup) set their country; this search is for everywhere.
  await page.getByLabel('Country', { exact: true }).selectOption('');
  await page.getByLabel('From', { exact: true }).selectOption('20');
  await page.getByLabel('To', { exact: true }).selectOption('70');
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/gender=woman/);
  await expect(page.getByTestId('member-card').first()).toBeVisible();
  await expect(page.getByTestId('num-results')).toContainText(/\d+/);
  await expect(page.getByTestId('member-card')).toHaveCount(24);
  await expectAccessible(page);

  await page.getByTestId('search-more').click();
  await expect(page.getByTestId('member-card')).toHaveCount(48);
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  const names = await page.getByTestId('member-card').allInnerTexts();

  // The profile starts from the card it was opened from (name and age), then fills in.
  const card = page.getByTestId('member-card').nth(30);
  const nameAndAge = (await card.getByRole('heading').textContent())?.trim() ?? '';
  await card.click();
  await expect(page.getByTestId('member-profile').getByRole('heading', { level: 1 })).toContainText(nameAndAge);
  await expect(page.getByTestId('member-profile')).toHaveAttribute('aria-busy', 'false');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page.getByTestId('member-card')).toHaveCount(48);
  expect(await page.getByTestId('member-card').allInnerTexts()).toEqual(names);

  // A new document has no cache: the address alone brings back both pages.
  await page.reload();
  await expect(page.getByTestId('member-card')).toHaveCount(48);
  expect(await page.getByTestId('member-card').allInnerTexts()).toEqual(names);
});

test('a filter that finds few shows similar members', async ({ page }) => {
  await page.goto('/members?gender=nonbinary&country=NZ&min_age=60&max_age=61');
  await expect(page.getByTestId('similar-results')).toBeVisible();
});

test.describe('on a phone', () => {
  // The phone of the phone project, whichever project runs this (the browser type is the project's own).
  const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];
  test.use(phone);

  test('"Show more" adds the next page below the cards read and keeps the scroll position', async ({ page }) => {
    test.setTimeout(JOURNEY_TIMEOUT);
    await logInAsDemo(page);
    // The day's auto-like is taken now, so its match modal cannot come over the page.
    await page.request.get('/api/auto-like.php', { headers: { 'x-request-type': 'client' } });
    await page.goto('/members?gender=');
    await expect(page.getByTestId('member-card')).toHaveCount(24);

    const more = page.getByTestId('search-more');
    await more.scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(1000);
    await more.click();
    await expect(page.getByTestId('member-card')).toHaveCount(48);
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    const after = await page.evaluate(() => window.scrollY);
    expect(Math.abs(after - before)).toBeLessThan(50);
    // The first card of the new page is below the window's top: the member reads on from where they were.
    const firstNew = await page.getByTestId('member-card').nth(24).boundingBox();
    expect(firstNew?.y ?? 0).toBeGreaterThan(0);
  });
});

test("a new member's first search in a region with few members widens, and says so in one line", async ({ browser }, info) => {
  test.setTimeout(JOURNEY_TIMEOUT);
  const { page } = await newMember(browser, 'Frisian', info.project.name, { asDevice: true });
  // Complete signup's answers: a man looking for women, in Friesland, where no demo member lives.
  const answers = await page.request.put('/api/complete-signup.php', {
    headers: { 'x-request-type': 'client' },
    data: { gender: 'man', looking_for: ['woman'], country: 'NL', region: 'NL-FR' },
  });
  expect(answers.ok(), await answers.text()).toBe(true);
  await page.goto('/members');
  await expect(page.getByTestId('search-widened')).toContainText(
    /^Few members (in .+ yet, so you see members from all over your country|near you yet, so you also see members from neighbouring countries)\.$/,
  );
  await expect(page.getByTestId('member-card').first()).toBeVisible();
  await expect(page.getByTestId('num-results')).not.toHaveText(/^[0-7] members? found$/);
  // The member's own filters answer as asked: no widening.
  await page.goto('/members?country=NL&countryregion=NL-FR');
  await expect(page.getByTestId('num-results')).toBeVisible();
  await expect(page.getByTestId('search-widened')).toHaveCount(0);
});
