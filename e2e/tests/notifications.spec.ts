import { expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { waitForMail } from './mail';
import { newMember } from './members';

/**
 * Notifications (spec §2, §3): a member chooses what they hear about, and a member whose address bounced sees why
 * mail stopped, over their pages and on the notifications page, and gets it going again. The bounce comes in as a
 * mail system reports it: a delivery status report (RFC 3464) to the mail's return path, posted to the reports
 * endpoint as an MTA pipe would.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const DEV_REPORTS_TOKEN = 'dev-mail-reports-token';

function bounceReport(returnPath: string, recipient: string): string {
  return [
    'From: Mail Delivery System <mailer-daemon@mx.example.net>',
    `To: ${returnPath}`,
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <bounce-${Date.now()}@mx.example.net>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered.',
    '',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
    '',
    '--b1--',
    '',
  ].join('\r\n');
}

test('a member turns a notification off on the notifications page, and it stays off', async ({ browser }, testInfo) => {
  const { page } = await newMember(browser, 'Nora', testInfo.project.name, { asDevice: true });
  await page.goto('/settings');
  await page.getByTestId('settings-notifications-link').click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const likes = page.getByRole('switch', { name: 'Likes and matches by Email' });
  await expect(likes).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Offers by Email' })).not.toBeChecked();
  await likes.click();
  await expect(page.getByText('Saved')).toBeVisible();
  await expectTranslated(page);
  await expectAccessible(page);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Likes and matches by Email' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Likes and matches by Push' })).toBeChecked();
  await page.context().close();
});

test('a member whose address bounced sees why mail stopped, and confirms the address to get it again', async ({ browser }, testInfo) => {
  const { page, email } = await newMember(browser, 'Bo', testInfo.project.name, { asDevice: true });
  const activation = await waitForMail(email);
  expect(activation.returnPath).toMatch(/^bounces\+\d+-[0-9a-f]+@/);
  const report = await page.request.post('/api/mail-reports', {
    headers: { authorization: `Bearer ${DEV_REPORTS_TOKEN}`, 'content-type': 'message/rfc822' },
    data: bounceReport(activation.returnPath, email),
  });
  expect(report.ok(), await report.text()).toBe(true);

  await page.goto('/pages/faq');
  const alert = page.getByTestId('disabled-notifications-alert');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('could not be delivered');
  await alert.getByRole('link', { name: 'Check your notification settings' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  // Not over the page where the way back is.
  await expect(alert).toHaveCount(0);
  const stopped = page.getByTestId('mail-stopped');
  await expect(stopped).toContainText(email);
  await expectAccessible(page);
  await stopped.getByTestId('confirm-address').click();
  await expect(stopped).toHaveCount(0);

  await page.goto('/pages/faq');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await page.context().close();
});
