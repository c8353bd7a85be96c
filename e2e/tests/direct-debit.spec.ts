import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * Direct debit (spec §2 /directdebit, §3 the direct-debit form, §5 'Invalid code'): a member comes from the credits
 * with a package, gives an account and a mobile number, reads the SMS code on the dev SMS page (no SMS provider on
 * the test server), confirms, and the package's payment starts on the new mandate without a checkout: pending until
 * the bank settles it, which the sandbox dashboard does here, and then the credits are there. A chargeback then
 * blocks the member for direct debit (spec §8).
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

/** A Dutch mobile number of this run alone, so the dev SMS page shows only its codes. */
function uniqueMobile(): string {
  return `+3161${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
}

/** The newest code sent to `phone`, from the dev SMS page's JSON. */
async function smsCode(page: Page, phone: string, notThis?: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/dev/sms.php?to=${encodeURIComponent(phone)}`);
      const { messages } = (await res.json()) as { messages: { text: string }[] };
      code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1] ?? '';
      return code !== '' && code !== notThis;
    })
    .toBe(true);
  return code;
}

async function credits(page: Page): Promise<number> {
  const res = await page.request.get('/api/user.php', { headers: CLIENT });
  return ((await res.json()) as { user: { credits: number } }).user.credits;
}

test('a member confirms an account with the SMS code, pays a package by direct debit, and is blocked after a chargeback', async ({
  browser,
}, testInfo) => {
  const { page } = await newMember(browser, 'Dirk', testInfo.project.name, { asDevice: true });
  const packages = await page.request.get('/api/packages.php', { headers: CLIENT });
  expect(packages.ok()).toBe(true);
  const pkg = ((await packages.json()) as { packages: { id: number; credits: number }[] }).packages[0];
  const before = await credits(page);

  await page.goto(`/directdebit?package=${pkg.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay by direct debit' })).toBeVisible();
  await expect(page.getByTestId('directdebit-package')).toContainText(`${pkg.credits} credits`);
  await page.getByLabel('Account holder').fill('Dirk de Vries');
  const iban = page.getByLabel('IBAN');
  await iban.pressSequentially('nl91abna0417164300');
  await expect(iban).toHaveValue('NL91 ABNA 0417 1643 00');
  await expect(page.getByText('Valid IBAN')).toBeVisible();
  await page.getByLabel('Street').fill('Keizersgracht');
  await page.getByLabel('House number').fill('12a');
  await page.getByLabel('Postcode').fill('1015 CS');
  await page.getByLabel('City').fill('Amsterdam');
  const phone = uniqueMobile();
  await page.getByLabel('Mobile number').fill(phone);
  await expectTranslated(page);
  await expectAccessible(page);
  await page.getByTestId('directdebit-send').click();

  const codeField = page.getByLabel('Code', { exact: true });
  await expect(codeField).toBeFocused();
  await expect(page.getByTestId('directdebit-code-sent')).toContainText(phone.slice(-2));
  const code = await smsCode(page, phone);

  // A wrong code first.
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await codeField.fill(wrong);
  await page.getByTestId('directdebit-confirm').click();
  await expect(page.getByTestId('directdebit-code-error')).toHaveText('Invalid code');
  await expectAccessible(page);

  await codeField.fill(code);
  await page.getByTestId('directdebit-confirm').click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const orderId = Number(/\/transactions\/(\d+)$/.exec(page.url())?.[1]);
  await expect(page.getByTestId('result-pending')).toBeVisible();
  expect(await credits(page)).toBe(before);

  // The bank collects it: the sandbox dashboard settles the payment as paid, and calls our webhook.
  await page.goto('/sandbox');
  const row = page.locator('tr', { hasText: `(order ${orderId})` });
  await expect(row).toContainText('recurring');
  await row.getByRole('button', { name: 'Settle: paid' }).click();
  await page.goto(`/transactions/${orderId}`);
  await expect(page.getByTestId('result-paid')).toBeVisible();
  expect(await credits(page)).toBe(before + pkg.credits);

  // The account stays: the page offers it for the next package.
  await page.goto(`/directdebit?package=${pkg.id}`);
  await expect(page.getByTestId('directdebit-mandate')).toContainText('4300');
  await expect(page.getByTestId('directdebit-pay')).toBeVisible();

  // The bank reverses the debit: the member is blocked for direct debit and is offered the other methods.
  await page.goto('/sandbox');
  await page
    .locator('tr', { hasText: `(order ${orderId})` })
    .getByRole('button', { name: 'Charge back' })
    .click();
  await page.goto(`/directdebit?package=${pkg.id}`);
  const blocked = page.getByTestId('directdebit-blocked');
  await expect(blocked).toContainText('Your account is blocked for direct debit');
  await expect(blocked.getByRole('link', { name: 'Other payment methods' })).toHaveAttribute('href', `/credits/${pkg.id}`);
  await expect(page.getByTestId('directdebit-pay')).toHaveCount(0);
  await expectAccessible(page);
});
