import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectTranslated, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

/** The live channel and a send can take seconds on a loaded two-core machine: waits on them get longer. */
const LIVE = { timeout: 30_000 };

/** Writes `text` in the open chat's composer and sends it; waits until the server has acknowledged it. */
async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Write a message…' });
  await box.fill(text);
  await page.getByTestId('chat-send').click();
  await expect(box).toHaveValue('');
}

/** Sends `text` and waits for the refusal: the message stays under "Not sent". */
async function sendRefused(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Write a message…' }).fill(text);
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-pending').filter({ hasText: text })).toContainText('Not sent', LIVE);
}

test('two members chat live: the message arrives without reload, with the unread badge and tab title; then credits run out', async ({
  browser,
}, info) => {
  const a = await newMember(browser, 'Amelie', info.project.name, { asDevice: true });
  const b = await newMember(browser, 'Bruno', info.project.name, { asDevice: true });

  // B waits on the members page, its live channel open.
  await b.page.goto('/members');
  await expect(b.page.getByTestId('nav-messages')).toBeVisible();
  await expect(b.page.getByTestId('messages-badge')).toHaveCount(0);

  // A opens a chat with B from the member's address: an empty chat that says hello and what a message costs.
  await a.page.goto(`/members/${b.profileId}/chat`);
  const conversation = a.page.getByTestId('conversation');
  await expect(conversation).toBeVisible();
  await expect(conversation.getByRole('heading', { name: 'Bruno' })).toBeVisible();
  await expect(conversation).toContainText('Say hello to Bruno!');
  await expect(a.page.getByTestId('chat-price')).toContainText('A message costs 10 credits');
  await expectTranslated(a.page);
  await expectAccessible(a.page);

  // The first send starts the conversation; the address becomes the conversation's.
  await send(a.page, 'Hi Bruno, fancy a coffee this week?');
  await expect(a.page).toHaveURL(/\/chats\/\d+$/, LIVE);
  await expect(a.page.getByTestId('chat-message').filter({ hasText: 'fancy a coffee' })).toContainText('Sent');

  // B, without reloading: the Messages badge and the tab title count the unread message.
  await expect(b.page.getByTestId('messages-badge')).toContainText('1', LIVE);
  await expect(b.page).toHaveTitle(/^\(1\) /);

  // B opens Messages: the chat with A is listed with one unread message.
  await b.page.getByTestId('nav-messages').click();
  await expect(b.page).toHaveURL(/\/chats$/);
  const item = b.page.getByTestId('chat-list-item').filter({ hasText: 'Amelie' });
  await expect(item).toContainText('fancy a coffee');
  await expect(item.getByTestId('chat-unread')).toContainText('1');
  await expectTranslated(b.page);
  await expectAccessible(b.page);

  // Opening it reads it: the count, the badge and the title prefix go.
  await item.getByRole('link').click();
  await expect(b.page).toHaveURL(/\/chats\/\d+$/);
  await expect(b.page.getByTestId('chat-message').filter({ hasText: 'fancy a coffee' })).toBeVisible();
  await expect(b.page).not.toHaveTitle(/^\(\d+\) /, LIVE);
  await expectAccessible(b.page);

  // B answers; A, still on the chat, sees it arrive without reloading.
  await send(b.page, 'Yes! Thursday at the corner café?');
  await expect(a.page.getByTestId('chat-message').filter({ hasText: 'Thursday at the corner café' })).toBeVisible(LIVE);
  // A is looking at the chat: it is read at once, so A's title carries no count.
  await expect(a.page).not.toHaveTitle(/^\(\d+\) /, LIVE);

  // A answers once more: 20 credits at signup, 10 a message, so that was the last one.
  await send(a.page, 'Perfect, see you then!');
  await expect(b.page.getByTestId('chat-message').filter({ hasText: 'see you then' })).toBeVisible(LIVE);

  // The next send is refused: the spec's words, the balance and the price, and a way to buy credits.
  await sendRefused(a.page, 'One more thing…');
  const dialog = a.page.getByTestId('not-enough-credits');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Not enough credits to send this message' })).toBeVisible();
  await expect(dialog).toContainText('You have 0 credits left, and a message costs 10 credits.');
  await expect(dialog.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/credits');
  await expectAccessible(a.page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // Nothing was stored for it: B never gets it.
  await expect(b.page.getByTestId('chat-message')).toHaveCount(3);

  await a.page.context().close();
  await b.page.context().close();
});

test('a free member starts two conversations, not a third, and can delete a chat', async ({ browser }, info) => {
  const c = await newMember(browser, 'Carla', info.project.name, { asDevice: true });
  const client = { headers: { 'x-request-type': 'client' } };
  const { results } = (await (await c.page.request.get('/api/search.php', client)).json()) as { results: { id: number; name: string }[] };
  // Three members whose names tell them apart in the list (neither name inside another).
  const picked: { id: number; name: string }[] = [];
  for (const card of results) {
    if (picked.length < 3 && !picked.some((p) => p.name.includes(card.name) || card.name.includes(p.name))) picked.push(card);
  }
  const [first, second, third] = picked;
  expect(third, 'the search lists at least three members').toBeDefined();

  for (const partner of [first, second]) {
    await c.page.goto(`/members/${partner.id}/chat`);
    await expect(c.page.getByTestId('conversation').getByRole('heading', { name: partner.name })).toBeVisible();
    await send(c.page, `Hello ${partner.name}, nice to meet you.`);
    await expect(c.page).toHaveURL(/\/chats\/\d+$/, LIVE);
  }

  // The third is refused with the reason, beside the composer.
  await c.page.goto(`/members/${third.id}/chat`);
  await expect(c.page.getByTestId('conversation').getByRole('heading', { name: third.name })).toBeVisible();
  await sendRefused(c.page, `Hello ${third.name}!`);
  const limit = c.page.getByTestId('chat-limit');
  await expect(limit).toContainText('As a free member you can start two conversations, and you have started both.');
  await expect(limit.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/credits');
  await expect(c.page).toHaveURL(new RegExp(`/members/${third.id}/chat$`));
  await expectAccessible(c.page);

  // The list holds the two chats; deleting one asks first, and it stays gone after a reload.
  await c.page.goto('/chats');
  const items = c.page.getByTestId('chat-list-item');
  await expect(items).toHaveCount(2);
  await expectAccessible(c.page);
  await items.filter({ hasText: first.name }).getByTestId('chat-delete').click();
  const confirm = c.page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText(`Delete the chat with ${first.name}?`);
  await confirm.getByTestId('confirm-ok').click();
  await expect(items).toHaveCount(1);
  await expect(items).toContainText(second.name);
  await c.page.reload();
  await expect(c.page.getByTestId('chat-list-item')).toHaveCount(1);
  await expect(c.page.getByTestId('chat-list-item')).toContainText(second.name);

  await c.page.context().close();
});

test('a message written offline waits, survives a reload and a closed tab, and arrives once when the connection returns', async ({
  browser,
}, info) => {
  const a = await newMember(browser, 'Dana', info.project.name, { asDevice: true });
  const b = await newMember(browser, 'Emil', info.project.name, { asDevice: true });
  const context = a.page.context();

  await a.page.goto(`/members/${b.profileId}/chat`);
  await expect(a.page.getByTestId('conversation').getByRole('heading', { name: 'Emil' })).toBeVisible();

  // The browser is offline: the first message waits, saying so, and nothing reaches the server.
  await context.setOffline(true);
  await a.page.getByRole('textbox', { name: 'Write a message…' }).fill('Written in the tunnel');
  await a.page.getByTestId('chat-send').click();
  const waiting = a.page.getByTestId('chat-pending').filter({ hasText: 'Written in the tunnel' });
  await expect(waiting).toContainText('Not sent: no connection. It will be sent when you are back online.');
  await expectAccessible(a.page);

  // The tab is closed while offline; the connection returns; a new tab sends it and starts the conversation.
  await a.page.close();
  await context.setOffline(false);
  const page = await context.newPage();
  await page.goto(`/members/${b.profileId}/chat`);
  await expect(page).toHaveURL(/\/chats\/\d+$/, LIVE);
  await expect(page.getByTestId('chat-message').filter({ hasText: 'Written in the tunnel' })).toContainText('Sent', LIVE);
  await expect(page.getByTestId('chat-pending')).toHaveCount(0);
  const chatUrl = page.url();

  // The server cannot be reached (sends fail on the network), the page is reloaded: still waiting, then sent by
  // itself once the server answers again.
  await page.route('**/api/messages.php', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
  );
  await page.getByRole('textbox', { name: 'Write a message…' }).fill('Through the reload');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-pending').filter({ hasText: 'Through the reload' })).toContainText('no connection', LIVE);
  await page.reload();
  await expect(page.getByTestId('chat-pending').filter({ hasText: 'Through the reload' })).toBeVisible();
  await page.unroute('**/api/messages.php');
  await expect(page.getByTestId('chat-message').filter({ hasText: 'Through the reload' })).toContainText('Sent', LIVE);

  // Emil has each message once (20 credits at signup, 10 a message: both were charged, nothing more).
  await b.page.goto(chatUrl);
  const received = b.page.getByTestId('chat-message');
  await expect(received.filter({ hasText: 'Through the reload' })).toHaveCount(1, LIVE);
  await expect(received.filter({ hasText: 'Written in the tunnel' })).toHaveCount(1);
  await expect(received).toHaveCount(2);

  await context.close();
  await b.page.context().close();
});

test('the chat opened last does not stay in the browser after the member logs out', async ({ browser }, info) => {
  test.skip(info.project.name !== 'desktop', 'the account menu of the top bar; phones log out the same way');
  const d = await newMember(browser, 'Dana', info.project.name);
  const client = { headers: { 'x-request-type': 'client' } };
  const { results } = (await (await d.page.request.get('/api/search.php', client)).json()) as { results: { id: number; name: string }[] };
  const partner = results[0];
  await d.page.goto(`/members/${partner.id}/chat`);
  await expect(d.page.getByTestId('conversation').getByRole('heading', { name: partner.name })).toBeVisible();
  await send(d.page, `Hello ${partner.name}!`);
  const lastChat = () => d.page.evaluate(() => window.localStorage.getItem('last_chat_opened'));
  await expect.poll(lastChat, LIVE).toContain(`"last_chat_opened_profile":${partner.id}`);

  await d.page.goto('/members');
  await d.page.getByTestId('account-menu').click();
  await d.page.getByTestId('logout').click();
  await expect(d.page.getByTestId('login-button')).toBeVisible();
  expect(await lastChat()).toBeNull();
  await d.page.context().close();
});
