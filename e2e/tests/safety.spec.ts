import { expect, expectAccessible, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

test('on a profile page a member reports, picks a gift, blocks and unblocks from settings; a visitor is sent to signup', async ({
  browser,
  page,
}, info) => {
  const isPhone = info.project.name === 'phone';
  const other = await newMember(browser, 'Rosa', info.project.name);
  const me = await newMember(browser, 'Jules', info.project.name, { asDevice: true });
  const profile = `/members/${other.profileId}`;

  await me.page.goto(profile);
  const actions = me.page.getByRole('group', { name: 'Actions' });
  await expect(actions.getByTestId('message-button')).toBeVisible();
  await expect(actions.getByTestId('gift-button')).toBeVisible();

  // Report: the chat's dialog and reasons, for a profile we never chatted with.
  await me.page.getByRole('button', { name: 'Report Rosa' }).click();
  const report = me.page.getByTestId('report-dialog');
  await expect(report.getByRole('heading')).toHaveText('Report Rosa');
  await report.getByLabel('Fake profile').check();
  await report.getByLabel(/Anything else our moderators should know/).fill('The photos belong to someone else.');
  await expectAccessible(me.page);
  await report.getByTestId('report-submit').click();
  await expect(report.getByTestId('report-done')).toContainText(/Reference: C-[A-Z2-9]{8}/);
  await report.getByTestId('report-close').click();
  // Once a day per profile: a second report says it was received already.
  await me.page.getByRole('button', { name: 'Report Rosa' }).click();
  await report.getByLabel('Spam or advertising').check();
  await report.getByTestId('report-submit').click();
  await expect(report.getByRole('alert')).toHaveText('You have already reported this member. Our moderators are looking into it.');
  await report.getByRole('button', { name: 'Cancel' }).click();

  // Gift: the chat's gift picker, paid in credits as in the chat: a new member's signup credits do not pay for a
  // gift, and the chat's dialog says so, with the way to buy more.
  await actions.getByTestId('gift-button').click();
  const picker = me.page.getByTestId('gift-picker');
  await expect(picker.getByTestId('gift-price')).toContainText(/A gift costs \d+ credits?/);
  await picker.getByTestId('gift-rose').click();
  await picker.getByTestId('gift-send').click();
  const refused = me.page.getByTestId('not-enough-credits');
  await expect(refused.getByRole('heading')).toHaveText('Not enough credits to send this message');
  await expect(refused).toContainText(/You have 20 credits left, and a gift costs \d+ credits\./);
  await expect(refused.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/credits');
  await expect(picker).toHaveCount(0);
  await refused.getByRole('button', { name: 'Close' }).click();

  // Block: the page then says only that Rosa is blocked, with Unblock.
  await me.page.getByTestId('block-toggle').click();
  await me.page
    .getByRole('dialog', { name: /Block Rosa/ })
    .getByTestId('confirm-ok')
    .click();
  await expect(me.page.getByTestId('blocked-by-me')).toContainText('You blocked Rosa.');
  await expect(me.page.getByTestId('block-toggle')).toHaveText('Unblock');
  for (const id of ['like-button', 'message-button', 'gift-button', 'profile-report']) {
    await expect(me.page.getByTestId(id)).toHaveCount(0);
  }

  // Settings list her (beside the day's fictional liker newMember blocked); Unblock there gives the profile page
  // its actions back.
  await me.page.goto('/settings');
  const rosa = me.page.getByTestId('settings-blocked').getByTestId('blocked-member').filter({ hasText: 'Rosa' });
  await expect(rosa).toHaveCount(1);
  await expect(rosa.getByRole('link')).toHaveAttribute('href', profile);
  await expectAccessible(me.page);
  await rosa.getByRole('button', { name: 'Unblock Rosa' }).click();
  await expect(rosa).toHaveCount(0);
  await expect(me.page.getByText('Rosa is unblocked.')).toBeVisible();
  await me.page.goto(profile);
  await expect(me.page.getByTestId('blocked-by-me')).toHaveCount(0);
  await expect(me.page.getByTestId('gift-button')).toBeVisible();

  // A visitor: Gift (and Message) lead to signup.
  await page.goto(profile);
  await page.getByRole('group', { name: 'Actions' }).getByTestId('gift-button').click();
  if (isPhone) await expect(page).toHaveURL(/\/signup/);
  else await expect(page.getByRole('dialog', { name: 'Join Amora for free' })).toBeVisible();
});

test('settings list a blocked member who has since turned invisible without their name, to be unblocked all the same', async ({
  browser,
}, info) => {
  const other = await newMember(browser, 'Marit', info.project.name);
  const me = await newMember(browser, 'Tove', info.project.name, { asDevice: true });
  const client = { 'x-request-type': 'client' };
  const blocked = await me.page.request.post('/api/block.php', { headers: client, data: { profile_id: other.profileId } });
  expect(blocked.ok()).toBe(true);
  const hidden = await other.page.request.put('/api/profile.php', { headers: client, data: { is_invisible: true } });
  expect(hidden.ok()).toBe(true);

  await me.page.goto('/settings');
  const list = me.page.getByTestId('settings-blocked');
  const row = list.getByTestId('blocked-member').filter({ hasText: 'A member who is no longer visible' });
  await expect(row).toHaveCount(1);
  await expect(list).not.toContainText('Marit');
  await expect(row.getByRole('link')).toHaveCount(0);
  await expectAccessible(me.page);
  await row.getByRole('button', { name: 'Unblock the member who is no longer visible' }).click();
  await expect(row).toHaveCount(0);
  await expect(me.page.getByText('The member is unblocked.')).toBeVisible();
  await me.page.context().close();
  await other.page.context().close();
});
