import { signInToConsole } from './console-staff';
import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { waitForMail } from './mail';

/**
 * News and offers from the console: the demo admin writes a mailing for Amora, looks at it in the real mail
 * template, sends a test to their own address, then sends it; the demo member, who opted in to news by email (demo
 * data), gets it through the real SMTP server, from the site, with the one-click unsubscribe.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

test('an admin writes news, tests it and sends it; the opted-in demo member gets it once', async ({ page }, testInfo) => {
  const subject = `Video profiles are here (${testInfo.project.name} ${Date.now().toString(36)})`;
  const body = 'You can now add a short video to your profile.\n\nHave a look today.';

  await signInToConsole(page, 'admin@amora.example');
  await page.getByTestId('console-nav').getByRole('link', { name: 'News and offers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'News and offers' })).toBeVisible();
  await page.getByTestId('mailing-new').click();
  await expect(page.getByRole('heading', { level: 1, name: 'New mailing' })).toBeVisible();

  await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Amora' });
  await page.getByLabel('Kind', { exact: true }).selectOption('news');
  await expect(page.getByRole('tab', { name: /English \(main language\)/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('mailing-subject').fill(subject);
  await page.getByTestId('mailing-body').fill(body);
  await expectAccessible(page);

  // The preview is the real mail: the site's frame around the text, greeting the admin.
  await page.getByTestId('mailing-preview').click();
  const preview = page.frameLocator('[data-testid="mailing-preview-frame"]');
  await expect(preview.getByRole('heading', { name: subject })).toBeVisible();
  await expect(preview.getByText('Hello Ada Admin,')).toBeVisible();
  await expect(preview.getByText('You can now add a short video to your profile.')).toBeVisible();

  // A test to the admin's own address, marked as one, without a one-click unsubscribe (it is no member's).
  await page.getByTestId('mailing-test').click();
  await expect(page.getByTestId('mailing-test-sent')).toHaveText('A test in English went to admin@amora.example.');
  await expect(page).toHaveURL(/\/console\/mailings\/\d+$/);
  const test = await waitForMail('admin@amora.example', (mail) => mail.subject === `Test: ${subject}`);
  expect(test.listUnsubscribe).toBeNull();

  // Sending asks first, then the page follows the sending.
  await page.getByTestId('mailing-send').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByText(/members? of Amora ha(s|ve) chosen these mails by email at the moment/)).toBeVisible();
  await dialog.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('mailing-progress')).toBeVisible();
  await expect(page.getByTestId('mailing-status')).toHaveText(/Scheduled|Sending|Sent/);
  await expect
    .poll(async () => Number(await page.getByTestId('mailing-progress-sent').textContent()), { timeout: 60_000 })
    .toBeGreaterThan(0);
  await expect(page.getByTestId('mailing-status')).toHaveText('Sent');
  await expectAccessible(page);

  // The demo member's mail: from the site, their name, the text, why they get it and the way out.
  const mail = await waitForMail('demo@amora.example', (m) => m.subject === subject);
  expect(mail.from).toBe('"Amora" <no-reply@amora.localhost>');
  expect(mail.text).toContain('Hello Sam,');
  expect(mail.text).toContain('You can now add a short video to your profile.');
  expect(mail.text).toContain('you chose to receive news from Amora');
  expect(mail.text).toMatch(/Stop these emails: http:\/\/amora\.localhost:\d+\/unsubscribe\?t=/);
  expect(mail.listUnsubscribe).toMatch(/^<http:\/\/amora\.localhost:\d+\/api\/unsubscribe\.php\?t=[\w.-]+>$/);
  expect(mail.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');

  // It is in the list, sent, and went to the demo member once.
  await page.getByRole('link', { name: 'All mailings' }).click();
  await expect(page.getByRole('link', { name: subject })).toBeVisible();
  const sink = await fetch(`http://127.0.0.1:${process.env.SMTP_SINK_HTTP_PORT ?? 4174}/messages?to=demo@amora.example`);
  expect(((await sink.json()) as { subject: string }[]).filter((m) => m.subject === subject)).toHaveLength(1);
});
