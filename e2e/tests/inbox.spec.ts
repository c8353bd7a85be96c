import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * The fictional-profile inbox: a member writes to a fictional profile, the demo operator signs in to the console,
 * claims the conversation and answers it by hand, and the member's open chat shows the answer at once, labelled
 * as coming from a fictional profile.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };
const STAFF_PASSWORD = 'amora-console-2026';

async function currentCode(page: Page): Promise<string> {
  const response = await page.request.get('/api/dev/console-code.php');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { code: string }).code;
}

/** The demo operator signs in; a code is taken once, so one another sign-in just used waits for the next. */
async function signInAsOperator(page: Page): Promise<void> {
  await page.goto('/console');
  await page.getByLabel('Email address').fill('operator@amora.example');
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  let tried = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    let code = await currentCode(page);
    while (code === tried) {
      await page.waitForTimeout(2_000);
      code = await currentCode(page);
    }
    tried = code;
    await page.getByLabel('Six-digit code from your authenticator app').fill(code);
    await page.getByTestId('code-submit').click();
    await expect(page.getByTestId('console-who').or(page.getByTestId('console-error'))).toBeVisible();
    if (await page.getByTestId('console-who').isVisible()) return;
  }
  throw new Error('the operator could not sign in');
}

test('an operator answers a message to a fictional profile by hand, and the member sees it live, labelled', async ({ browser, page }) => {
  const project = test.info().project.name;
  test.skip(project === 'phone', 'the console is made for desktop and tablet widths');

  // The operator signs in and makes a fictional profile to write to.
  await signInAsOperator(page);
  const made = await page.request.post('/api/console/fictional-profiles', {
    headers: CLIENT,
    data: { site_id: 1, name: 'Lotte', birth_date: '1993-04-12', gender: 'woman', country: 'NL', city: 'Utrecht', about: 'Coffee.' },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const fictionalId = ((await made.json()) as { profile: { id: number } }).profile.id;

  // A member writes to it and keeps the chat open.
  const member = await newMember(browser, 'Greta', project);
  const sent = await member.page.request.post('/api/messages.php', {
    headers: CLIENT,
    data: { profile: fictionalId, body: 'Hi Lotte, fancy a coffee?', client_id: randomUUID() },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const conversationId = ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;
  await member.page.goto(`/members/${fictionalId}/chat`);
  await expect(member.page.getByTestId('chat-header-fictional')).toBeVisible();
  await expect(member.page.getByTestId('chat-message')).toHaveCount(1);

  // The inbox has it; the operator opens it, claims it and answers with Enter.
  await page.getByTestId('console-nav').getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await page.goto(`/console/inbox/${conversationId}`);
  await expect(page.getByTestId('inbox-messages')).toContainText('Hi Lotte, fancy a coffee?');
  await expect(page.getByTestId('inbox-member')).toContainText('Greta');
  await page.getByTestId('inbox-claim-button').click();
  await expect(page.getByTestId('inbox-claim-left')).toContainText(/[45]:\d\d/);
  await page.getByTestId('inbox-reply').fill('Hi Greta! I would love to.');
  await page.getByTestId('inbox-reply').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByTestId(`inbox-${conversationId}`)).toHaveCount(0);

  // The member's open chat shows the answer at once, from the fictional profile and labelled as such.
  const answer = member.page.getByTestId('chat-message').filter({ hasText: 'Hi Greta! I would love to.' });
  await expect(answer).toBeVisible({ timeout: 15_000 });
  await expect(answer.getByTestId('chat-fictional-label')).toBeVisible();
  await member.page.context().close();
});
