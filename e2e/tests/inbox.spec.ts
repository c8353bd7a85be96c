import { randomUUID } from 'node:crypto';
import { signInToConsole } from './console-staff';
import { expect, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * The fictional-profile inbox: a member writes to a fictional profile, the demo operator signs in to the console,
 * claims the conversation and answers it by hand, and the member's open chat shows the answer at once, labelled
 * as coming from a fictional profile. And the other way round: what a member writes shows in the operator's open
 * inbox at once (the console's live channel), on a desktop and on a phone.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

test('an operator answers a message to a fictional profile by hand, and the member sees it live, labelled', async ({ browser, page }) => {
  const project = test.info().project.name;
  test.skip(project === 'phone', 'the console is made for desktop and tablet widths');

  // The operator signs in and makes a fictional profile to write to.
  await signInToConsole(page, 'operator@amora.example');
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

test('a member’s message shows in the operator’s open inbox at once, without a reload', async ({ browser, page }) => {
  const project = test.info().project.name;
  await signInToConsole(page, 'operator@amora.example');
  const made = await page.request.post('/api/console/fictional-profiles', {
    headers: CLIENT,
    data: { site_id: 1, name: 'Noor', birth_date: '1991-09-20', gender: 'woman', country: 'NL', city: 'Leiden', about: 'Books.' },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const fictionalId = ((await made.json()) as { profile: { id: number } }).profile.id;
  const member = await newMember(browser, 'Hanna', project);

  // The operator opens the inbox and picks the site; the page is marked, so a reload would show.
  await page.goto('/console/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await page.getByLabel('Site').selectOption({ label: 'Amora' });
  await expect(page).toHaveURL(/\/console\/inbox\?site=1$/);
  await expect(page.locator('[data-live="open"]')).toBeVisible();
  await page.evaluate(() => {
    (window as { openedOnce?: boolean }).openedOnce = true;
  });

  // The member writes; the open inbox shows it within seconds (its fallback reading is two minutes away).
  const sent = await member.page.request.post('/api/messages.php', {
    headers: CLIENT,
    data: { profile: fictionalId, body: 'Hi Noor, what are you reading?', client_id: randomUUID() },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const conversationId = ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;
  const row = page.getByTestId(`inbox-${conversationId}`);
  await expect(row).toContainText('Hanna', { timeout: 10_000 });
  await expect(row).toContainText('1 message waiting');
  await expect(row).toContainText('Noor');

  // A second message updates its count the same way.
  const again = await member.page.request.post('/api/messages.php', {
    headers: CLIENT,
    data: { conversation: conversationId, body: 'Still there?', client_id: randomUUID() },
  });
  expect(again.ok(), await again.text()).toBe(true);
  await expect(row).toContainText('2 messages waiting', { timeout: 10_000 });
  expect(await page.evaluate(() => (window as { openedOnce?: boolean }).openedOnce)).toBe(true);
  await member.page.context().close();
});
