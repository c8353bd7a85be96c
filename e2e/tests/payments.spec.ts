import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * Buying credits (spec §2 credits, premium, credits-id-paymentmethod, credits-repeat-order, transactions-id; §4
 * payment states; §8 'The payment has failed or been cancelled') against the built server's sandbox provider, which
 * speaks Mollie's API and has a hosted test checkout where the payer picks the outcome.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

async function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 1000, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

async function credits(page: Page): Promise<{ credits: number; paid_user: boolean }> {
  const res = await page.request.get('/api/user.php', { headers: CLIENT });
  const { user } = (await res.json()) as { user: { credits: number; paid_user: boolean } };
  return { credits: user.credits, paid_user: user.paid_user };
}

/**
 * On the sandbox's hosted checkout: the outcome the payer picks, then back to the return page. The provider sends
 * the payer to the site's own address (http://amora.localhost:<port>/transactions/…), where this test's browser,
 * which talks to localhost, has no session: the same page is opened here.
 */
async function payOnSandbox(page: Page, outcome: 'Paid' | 'Failed' | 'Canceled'): Promise<void> {
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByRole('button', { name: outcome, exact: true }).click();
  let back = '';
  await page.waitForURL(
    (url) => {
      if (!/^\/transactions\/\d+$/.test(url.pathname)) return false;
      back = url.pathname;
      return true;
    },
    { waitUntil: 'commit' },
  );
  await page.goto(back);
  await expect(page).toHaveURL(new RegExp(`^http://localhost:\\d+${back}$`));
}

test('a free member buys a package on the sandbox checkout, becomes Premium and sees the locked photos, then repeats the order', async ({
  browser,
}, info) => {
  // A member with three photos: a free viewer sees the main one, the others locked.
  const owner = await newMember(browser, 'Ines', info.project.name);
  for (const [i, colour] of ['#c8213a', '#1e7e45', '#f27a1a'].entries()) {
    const res = await owner.page.request.post('/api/photos.php', {
      headers: CLIENT,
      multipart: { photo: { name: `p${i}.jpg`, mimeType: 'image/jpeg', buffer: await photo(colour) } },
    });
    expect(res.ok()).toBe(true);
  }

  const { page } = await newMember(browser, 'Paul', info.project.name, { asDevice: true });
  const before = await credits(page);
  expect(before.paid_user).toBe(false);

  await page.goto(`/members/${owner.profileId}`);
  await expect(page.getByTestId('locked-photo')).toHaveCount(2);
  // The lock leads to Premium.
  const lock = page.getByTestId('locked-photo-premium').first();
  await expect(lock).toHaveAttribute('href', /\/premium$/);
  await expect(page.getByTestId('nav-credits')).toHaveText(/Premium/);
  await page.goto((await lock.getAttribute('href')) as string);
  await expect(page).toHaveURL(/\/premium$/);
  await expect(page.getByTestId('premium-benefits')).toContainText('25 photos instead of 3');
  await expectTranslated(page);
  await expectAccessible(page);

  // A package → its checkout; the first method the provider offers; Pay.
  const packages = page.getByTestId('packages').getByRole('link');
  await expect(packages.first()).toBeVisible();
  const packageId = Number(/\/credits\/(\d+)$/.exec((await packages.nth(1).getAttribute('href')) ?? '')?.[1]);
  await packages.nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/credits/${packageId}$`));
  // iDEAL: a one-off payment (a card would make the repeat a payment on its mandate, without a checkout).
  const ideal = page.getByTestId('method-ideal').getByRole('radio');
  await expect(ideal).toBeVisible();
  await expectTranslated(page);
  await expectAccessible(page);
  await ideal.check();
  await expect(page).toHaveURL(new RegExp(`/credits/${packageId}/ideal$`));
  const total = (await page.getByTestId('summary-total').textContent()) ?? '';
  await expect(page.getByTestId('pay-button')).toContainText(total);
  await page.getByTestId('pay-button').click();
  await payOnSandbox(page, 'Paid');

  // The return page: completed, the credits, Premium, the receipt.
  const paid = page.getByTestId('result-paid');
  await expect(paid).toContainText('Payment completed');
  const bought = Number(/(\d+) credits have been added/.exec((await paid.textContent()) ?? '')?.[1]);
  expect(bought).toBeGreaterThan(0);
  await expect(paid.getByTestId('own-premium-badge')).toHaveText('Premium');
  await expect(page.getByTestId('receipt')).toContainText('Receipt');
  await expect(page.getByTestId('nav-credits')).toContainText('Credits');
  await expectAccessible(page);
  const after = await credits(page);
  expect(after.paid_user).toBe(true);
  expect(after.credits).toBe(before.credits + bought);

  // Locked photos are open now.
  await page.goto(`/members/${owner.profileId}`);
  await expect(page.getByTestId('open-photo')).toHaveCount(3);
  await expect(page.getByTestId('locked-photo')).toHaveCount(0);

  // The balance and the repeat button on /credits; repeating the order pays the same package again.
  await page.goto('/credits');
  await expect(page.getByTestId('balance')).toContainText(`${after.credits} credits`);
  await expect(page.getByTestId('own-premium-badge')).toBeVisible();
  await page.getByTestId('repeat-order-button').click();
  await payOnSandbox(page, 'Paid');
  await expect(page.getByTestId('result-paid')).toContainText(`${bought} credits have been added`);
  expect((await credits(page)).credits).toBe(after.credits + bought);

  // Both payments are in the history, with the purchases among the credit movements.
  await page.goto('/transactions');
  await expect(page.getByTestId('orders').getByRole('link')).toHaveCount(2);
  await expect(page.getByTestId('movements')).toContainText('Credits bought');
  await expectTranslated(page);
  await expectAccessible(page);
});

test('a failed payment says so, credits nothing and offers another method', async ({ browser }, info) => {
  const { page } = await newMember(browser, 'Fenna', info.project.name, { asDevice: true });
  const before = await credits(page);
  await page.goto('/credits');
  const first = page.getByTestId('packages').getByRole('link').first();
  const href = (await first.getAttribute('href')) ?? '';
  await first.click();
  await page.getByTestId('method-ideal').getByRole('radio').check();
  await page.getByTestId('pay-button').click();
  await payOnSandbox(page, 'Failed');

  const failed = page.getByTestId('result-failed');
  await expect(failed.getByRole('heading')).toHaveText('The payment has failed or been cancelled');
  await expect(failed.getByRole('link', { name: 'Try another payment method' })).toHaveAttribute('href', href);
  await expectAccessible(page);
  expect(await credits(page)).toEqual(before);

  await failed.getByRole('link', { name: 'Try another payment method' }).click();
  await expect(page.getByTestId('methods')).toBeVisible();
  await expect(page.getByTestId('nav-credits')).toHaveText(/Premium/);
});

test('a discounted checkout left with the back button continues on Pay again, and canceled keeps the discount and its banner', async ({
  browser,
}, info) => {
  const { page } = await newMember(browser, 'Dora', info.project.name, { asDevice: true });
  await page.goto('/members');
  await expect(page.getByTestId('time-bonus-banner')).toBeVisible();

  // The time bonus prices the packages: the list price struck through, the discounted one beside it.
  await page.goto('/credits');
  const card = page.getByTestId('packages').getByRole('link').nth(1);
  await expect(card.getByTestId('was-price')).toBeVisible();
  const discounted = (await card.getByTestId('price').textContent()) ?? '';
  const was = (await card.getByTestId('was-price').textContent()) ?? '';
  expect(discounted).not.toBe(was);

  const startCheckout = async () => {
    await page.goto('/credits');
    await page.getByTestId('packages').getByRole('link').nth(1).click();
    await page.getByTestId('method-ideal').getByRole('radio').check();
    await expect(page.getByTestId('pay-button')).toContainText(discounted);
    await page.getByTestId('pay-button').click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  };
  const discountStillThere = async () => {
    await page.goto('/credits');
    const again = page.getByTestId('packages').getByRole('link').nth(1);
    await expect(again.getByTestId('price')).toHaveText(discounted);
    await expect(again.getByTestId('was-price')).toHaveText(was);
    await expect(page.getByTestId('discount-note')).toBeVisible();
    await page.goto('/members');
    await expect(page.getByTestId('time-bonus-banner')).toBeVisible();
  };

  // The payer goes back from the provider's checkout without paying: the order is still open there.
  await startCheckout();
  const leftBehind = page.url();
  await page.goBack();
  await expect(page).not.toHaveURL(/\/sandbox\//);

  // Pay again with the same choice: the provider does not cancel an open iDEAL payment, so the same checkout goes
  // on, at the discounted price (no second payment, no "already used").
  await expect(page).toHaveURL(/\/credits\/\d+\/ideal$/);
  await expect(page.getByTestId('pay-button')).toContainText(discounted);
  await expect(page.getByTestId('pay-error')).toHaveCount(0);
  await page.getByTestId('pay-button').click();
  await expect(page).toHaveURL(leftBehind);
  await page.goBack();
  await expect(page).not.toHaveURL(/\/sandbox\//);
  await discountStillThere();
  await page.goto(leftBehind);

  // Canceled on it: the discount and the banner stay.
  await payOnSandbox(page, 'Canceled');
  await expect(page.getByTestId('result-failed')).toBeVisible();
  await discountStillThere();

  // Paid at last, at the discounted price: the discount is used, the banner gone.
  await startCheckout();
  await payOnSandbox(page, 'Paid');
  await expect(page.getByTestId('result-paid')).toBeVisible();
  await page.goto('/credits');
  await expect(page.getByTestId('packages').getByRole('link').nth(1).getByTestId('was-price')).toHaveCount(0);
  await expect(page.getByTestId('time-bonus-banner')).toHaveCount(0);
});
