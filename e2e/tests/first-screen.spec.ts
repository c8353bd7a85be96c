import { randomUUID } from 'node:crypto';
import { type Browser, devices, type Page } from '@playwright/test';
import { answerEntryWarning, appReady, expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { uniqueEmail } from './mail';
import { newMember, PASSWORD } from './members';

/**
 * What a new member meets first: on a phone the banners take at most a fifth of the first screen (one strip, one
 * banner in front), each can be closed or asks the member to act, and a profile shows its name and age on the
 * first screen above the action bar; after signup the activation reminder is a modal (desktop); /chats on a
 * desktop opens the chat opened last.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };
// A Pixel 7 at 390×844, whichever project runs this file (its browser is the project's own).
const { defaultBrowserType: _browser, ...PIXEL_7 } = devices['Pixel 7'];
const PHONE = { ...PIXEL_7, viewport: { width: 390, height: 844 } };

/** A member who signed up a moment ago and has not opened the activation mail yet, logged in in its own context. */
async function newUnconfirmedMember(browser: Browser, name: string, onPhone: boolean): Promise<Page> {
  const { baseURL } = test.info().project.use;
  const context = await browser.newContext(onPhone ? { ...PHONE, baseURL } : { baseURL, viewport: { width: 1280, height: 800 } });
  await answerEntryWarning(context);
  const page = await context.newPage();
  const res = await page.request.post('/api/signup.php', {
    headers: CLIENT,
    data: {
      email: uniqueEmail(name.toLowerCase(), test.info().project.name),
      name,
      password: PASSWORD,
      date_of_birth: '1991-04-04',
      terms: true,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { user } = await res.json();
  expect(user.status).toBe('not_confirmed');
  return page;
}

test('on a phone a new unconfirmed member’s banners take at most a fifth of the screen, and a profile its name above the action bar', async ({
  browser,
}) => {
  const page = await newUnconfirmedMember(browser, 'Sanne', true);
  const viewport = page.viewportSize();
  expect(viewport).toEqual({ width: 390, height: 844 });

  await page.goto('/members');
  await appReady(page);
  const strip = page.getByTestId('banner-strip');
  await expect(page.getByTestId('time-bonus-banner')).toBeVisible();
  // Three banners (time bonus, activation reminder, photo alert): one in front, the others behind it.
  const next = strip.getByRole('button', { name: 'Notice 1 of 3, show the next' });
  await expect(next).toBeVisible();
  const stripHeight = async () => (await strip.boundingBox())?.height ?? Number.POSITIVE_INFINITY;
  expect(await stripHeight()).toBeLessThanOrEqual((viewport?.height ?? 0) * 0.2);

  // Each banner in turn: in front alone, within the fifth, and either closable or asking for an action.
  const seen: string[] = [];
  for (let shown = 1; shown <= 3; shown++) {
    const front = strip.locator('.banner-strip-items > *:visible');
    await expect(front).toHaveCount(1);
    const id = (await front.getAttribute('data-testid')) ?? '';
    seen.push(id);
    expect(await stripHeight()).toBeLessThanOrEqual((viewport?.height ?? 0) * 0.2);
    if (id === 'activation-alert') await expect(front.getByRole('button', { name: 'Send the email again' })).toBeVisible();
    else await expect(front.getByRole('button', { name: 'Close' })).toBeVisible();
    await strip.getByRole('button', { name: `Notice ${shown} of 3, show the next` }).click();
  }
  expect(seen).toEqual(['time-bonus-banner', 'activation-alert', 'photo-alert']);
  await expectAccessible(page);

  // Closing the one in front brings the next; the closed one stays away on the next page, rendered by the server.
  await strip.getByRole('region', { name: 'Time bonus' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('time-bonus-banner')).toHaveCount(0);
  await expect(strip.getByRole('button', { name: 'Notice 1 of 2, show the next' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('activation-alert')).toBeVisible();
  await expect(page.getByTestId('time-bonus-banner')).toHaveCount(0);

  // A profile: name and age on the first screen, above the action bar and the tab bar.
  await page.getByTestId('member-card').first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  const heading = page.getByTestId('member-profile').getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/, \d\d/);
  await expect(heading).toBeInViewport();
  const actionBar = page.getByRole('group', { name: 'Actions' });
  await expect(actionBar).toBeInViewport();
  const [head, bar] = await Promise.all([heading.boundingBox(), actionBar.boundingBox()]);
  expect(head).not.toBeNull();
  expect(bar).not.toBeNull();
  if (head && bar) {
    expect(head.y).toBeGreaterThanOrEqual(0);
    expect(head.y + head.height).toBeLessThanOrEqual(bar.y);
    expect(bar.y + bar.height).toBeLessThanOrEqual(viewport?.height ?? 0);
  }
  await page.context().close();
});

test('after signup the way on opens the activation reminder as a modal', async ({ browser }) => {
  const page = await newUnconfirmedMember(browser, 'Femke', false);
  await page.goto('/signup-matches');
  await page.getByRole('link', { name: 'See the members' }).click();
  await expect(page).toHaveURL(/\/members\?api_signup_complete=1$/);
  const modal = page.getByRole('dialog', { name: 'Confirm your email address' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Send the email again' })).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toHaveCount(0);
  await page.context().close();
});

test('on a desktop /chats opens the chat opened last', async ({ browser }) => {
  const project = test.info().project.name;
  // A desktop's behaviour: the phone project's browser says it is a phone, whatever its window (the list is tested there).
  test.skip(project === 'phone', 'desktop only');
  const member = await newMember(browser, 'Lotte', project);
  const other = await newMember(browser, 'Daan', project);
  const third = await newMember(browser, 'Joris', project);
  const { page } = member;
  await page.setViewportSize({ width: 1280, height: 800 });
  const conversations: number[] = [];
  for (const partner of [other, third]) {
    const sent = await page.request.post('/api/messages.php', {
      headers: CLIENT,
      data: { profile: partner.profileId, body: 'Hello there!', client_id: randomUUID() },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
    conversations.push((await sent.json()).message.conversation_id);
  }
  // Opened: the chat with Daan; the list puts Joris's first (the latest).
  await page.goto(`/chats/${conversations[0]}`);
  await expect(page.getByTestId('chats-page')).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Hello there!');
  await page.goto('/members');
  await page.getByTestId('nav-messages').click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversations[0]}$`));

  // Daan blocks the member: /chats falls back to the list.
  const blocked = await other.page.request.post('/api/block.php', { headers: CLIENT, data: { profile_id: member.profileId } });
  expect(blocked.ok()).toBe(true);
  await page.goto('/chats');
  await expect(page.getByTestId('chat-list-item').first()).toBeVisible();
  await expect(page).toHaveURL(/\/chats$/);
  for (const who of [member, other, third]) await who.page.context().close();
});
