import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { linkIn, uniqueEmail, waitForMail } from './mail';

/**
 * A member landing (spec §2 members-id-landing): a visitor from paid traffic opens the landing of one of the
 * demo's fictional profiles with the tracking query, goes on to the signup about that profile and signs up with a
 * first message. The new member carries the traffic source; once the address is confirmed, the message is in
 * the conversation with that profile.
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const PASSWORD = 'correct horse battery';

test("a visitor signs up from a fictional profile's landing with a first message, delivered once activated", async ({ page }) => {
  const project = test.info().project.name;
  // One of the site's fictional profiles, as the landers show them.
  const lander = await page.request.get('/api/lander.php?name=gallery', { headers: { 'x-request-type': 'client' } });
  expect(lander.ok(), await lander.text()).toBe(true);
  const [fictional] = ((await lander.json()) as { profiles: { id: number; name: string; age: number }[] }).profiles;
  expect(fictional).toBeDefined();

  await page.goto(`/members/${fictional.id}/landing?network=test&sub1=x`);
  const landing = page.getByTestId('member-landing');
  await expect(landing.getByRole('heading', { level: 1, name: `${fictional.name}, ${fictional.age}` })).toBeVisible();
  await expect(landing.getByTestId('member-landing-fictional')).toBeVisible();
  await expectAccessible(page);

  await landing.getByTestId('member-landing-cta').click();
  await expect(page).toHaveURL(new RegExp(`/members/${fictional.id}/signup\\?network=test&sub1=x$`));
  const form = page.getByTestId('signup-form');
  await expect(page.getByTestId('signup-recipient')).toContainText(fictional.name);
  const email = uniqueEmail('landing', project);
  const message = `Hello ${fictional.name}, I found you on your page. Coffee sometime?`;
  await form.getByLabel('Username').fill('Jordan');
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel(/^Password/).fill(PASSWORD);
  await form.getByLabel(/Date of birth/).fill('1991-06-15');
  await form.getByLabel(`Your first message to ${fictional.name}`).fill(message);
  await form.getByLabel(/I accept the/).check();
  await form.getByTestId('signup-submit').click();
  await expect(page.getByTestId('complete-signup')).toBeVisible();

  // The member carries the traffic source of the landing.
  const user = await page.request.get('/api/user.php', { headers: { 'x-request-type': 'client' } });
  expect(((await user.json()) as { user: { trafficsource: string | null } }).user.trafficsource).toBe('test');

  // Not before the address is confirmed: then the message is the first of the conversation with that profile.
  await page.goto(linkIn(await waitForMail(email)));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await page.goto(`/members/${fictional.id}/chat`);
  await expect(page.getByTestId('chat-header-fictional')).toBeVisible();
  const sent = page.getByTestId('chat-message').filter({ hasText: message });
  await expect(sent).toBeVisible();
  await expect(page.getByTestId('chat-message')).toHaveCount(1);
});
