import { randomUUID } from 'node:crypto';
import { signInToConsole } from './console-staff';
import { expect, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember, PASSWORD } from './members';

/**
 * Moderation: a member reports a message, the demo moderator signs in to the console, sees the message in its
 * conversation and suspends its sender, whose open tab is logged out at once and whose login is refused.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

test('a reported message is seen in context in the console, its sender suspended and logged out at once', async ({ browser, page }) => {
  const project = test.info().project.name;
  test.skip(project === 'phone', 'the console is made for desktop and tablet widths');
  const sender = await newMember(browser, 'Brutus', project);
  const reporter = await newMember(browser, 'Clara', project);

  // Brutus writes to Clara, who reports the message.
  const sent = await sender.page.request.post('/api/messages.php', {
    headers: CLIENT,
    data: { profile: reporter.profileId, body: 'You will regret this', client_id: randomUUID() },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const message = (await sent.json()).message as { id: number; conversation_id: number };
  const report = await reporter.page.request.post('/api/chat-report.php', {
    headers: CLIENT,
    data: { conversation: message.conversation_id, message: message.id, reason: 'harassment', text: 'A threat.' },
  });
  expect(report.ok(), await report.text()).toBe(true);
  const { reference } = (await report.json()) as { reference: string };

  // Brutus has the site open.
  await sender.page.goto('/members');
  await expect(sender.page.getByTestId('login-button')).toHaveCount(0);

  // The moderator finds the report in the queue and opens it.
  await signInToConsole(page, 'moderator@amora.example');
  await page.getByTestId('console-nav').getByRole('link', { name: 'Moderation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
  await page.getByLabel('Kind').selectOption('message_report');
  await page.getByTestId('queue-filter').click();
  await page.getByRole('link', { name: new RegExp(reference) }).click();
  const conversation = page.getByTestId('moderation-conversation');
  await expect(conversation.getByTestId(`message-${message.id}`)).toContainText('You will regret this');
  await expect(conversation.getByTestId(`message-${message.id}`)).toContainText('Reported message');

  // Suspended for a day: Brutus's open tab is logged out at once, and his login is refused.
  await page.getByLabel('Suspend', { exact: true }).check();
  await page.getByLabel('Suspend for').selectOption('1');
  await page.getByLabel('Reason').fill('Threatening another member');
  await page.getByTestId('moderation-apply').click();
  await expect(page.getByTestId('moderation-done')).toContainText('Suspended');
  await expect(page.getByTestId('item-status')).toHaveText('Handled');

  await expect(sender.page.getByTestId('login-button')).toBeVisible({ timeout: 15_000 });
  const login = await sender.page.request.post('/api/user.php', { headers: CLIENT, data: { email: sender.email, password: PASSWORD } });
  expect(login.status()).toBe(403);
  expect((await login.json()).error).toBe('suspended');

  // Clara hears that her report was looked into, and nothing more.
  await reporter.page.goto('/members');
  await expect(reporter.page.getByTestId('moderation-reports-handled')).toContainText(reference);
});
