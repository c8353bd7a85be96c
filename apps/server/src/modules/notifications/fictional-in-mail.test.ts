import { randomUUID } from 'node:crypto';
import { MESSAGE_DIGEST_WINDOW_MS } from '@amora/contracts';
import { profiles, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, mailsTo } from '../../test/accounts';
import { callAs, createLike, createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { credit } from '../credits/credits.service';
import { remindOfUnread } from './unread-reminder.service';

/**
 * Every mail that names a profile names a fictional one with the site's word for it, "Noorella (entertainment
 * profile)": mail clients hide images, so the word is the mail's fictional icon (the pages' icon is checked by
 * e2e/tests/fictional-label.spec.ts; the weekly update's suggestions by reminders.service.test.ts). Each mail
 * about a fictional profile's like, match or messages (answered by an operator in the console) names it so in
 * its subject, text and HTML, and never bare.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: TestApp;
let operator: StaffMember;
let me: Member;
let singular: string;
let siteId: number;
beforeAll(async () => {
  t = await createTestApp();
  operator = await createStaffMember(t, 'operator');
  me = await createMember(t);
  [{ siteId }] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, me.profileId));
  await credit(t.ctx, { userId: me.userId, siteId, amount: 1_000, reason: 'test' });
  // A paying member: she starts more conversations than a free member may.
  await t.ctx.db.update(users).set({ paidUser: true }).where(eq(users.id, me.userId));
  singular = (await call(t, 'GET', '/api/settings.php?lang=en')).json().fictional_singular;
});
afterAll(async () => {
  await t?.close();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The member's newest mail of `kind`, after the due jobs ran with `ms` more on the clock (by default past the
 * digest window, so the mail after another one is due).
 */
async function newest(kind: string, ms = MESSAGE_DIGEST_WINDOW_MS + MINUTE) {
  t.clock.advance(ms);
  await t.ctx.jobs.runDue();
  const [mail] = await mailsTo(t, me.email, kind);
  expect(mail, `a ${kind} mail`).toBeDefined();
  return mail;
}

/** The mail names each of `names` with the fictional word, in its text and HTML (and its subject when it names them there), never bare. */
function expectLabelled(mail: { kind: string; subject: string; text: string; html: string }, names: string[]) {
  for (const name of names) {
    const labelled = `${name} (${singular})`;
    expect(mail.text, `${mail.kind} text`).toContain(labelled);
    expect(mail.html, `${mail.kind} html`).toContain(labelled);
    const bare = new RegExp(`${escapeRegExp(name)}(?! \\(${escapeRegExp(singular)}\\))`);
    for (const part of ['subject', 'text', 'html'] as const) expect(mail[part], `${mail.kind} ${part}`).not.toMatch(bare);
  }
}

/** A fictional profile writes to the member, as the console's operator answers for it. */
async function answerAs(fictional: number, text: string): Promise<void> {
  const sent = await callAs(t, me, 'POST', '/api/messages.php', { profile: fictional, body: 'Hello?', client_id: randomUUID() });
  expect(sent.statusCode, sent.body).toBe(200);
  const conversation = sent.json().message.conversation_id as number;
  t.clock.advance(31_000);
  expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`)).statusCode).toBe(200);
  const answered = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text });
  expect(answered.statusCode, answered.body).toBe(200);
}

describe('a fictional profile in mail', () => {
  it('is labelled in the like, match, message and several-at-once mails, and in the reminder of unread messages', async () => {
    const fictional = (name: string) => createProfile(t, { siteId, name, isFictional: true });
    const [noorella, mirabel, kimberlyn] = [await fictional('Noorella'), await fictional('Mirabel'), await fictional('Kimberlyn')];

    await createLike(t, noorella.id, me.profileId);
    await t.ctx.jobs.enqueue(t.ctx.db, 'notifications.mail', { userId: me.userId });
    const like = await newest('activity_like', 1_000);
    expect(like.subject).toBe(`Noorella (${singular}) likes you on Amora`);
    expectLabelled(like, ['Noorella']);

    const liked = await callAs(t, me, 'POST', '/api/like.php', { profile_id: mirabel.id, source: 'profile' });
    expect(liked.statusCode, liked.body).toBe(200);
    await createLike(t, mirabel.id, me.profileId);
    await t.ctx.jobs.enqueue(t.ctx.db, 'notifications.mail', { userId: me.userId });
    expectLabelled(await newest('activity_match', 1_000), ['Mirabel']);

    const member = await createMember(t);
    await createLike(t, kimberlyn.id, me.profileId);
    await createLike(t, member.profileId, me.profileId);
    await t.ctx.jobs.enqueue(t.ctx.db, 'notifications.mail', { userId: me.userId });
    expectLabelled(await newest('activity_likes', 1_000), ['Kimberlyn']);

    await answerAs(noorella.id, 'I walk there every morning.');
    expectLabelled(await newest('activity_message'), ['Noorella']);

    await answerAs(kimberlyn.id, 'Hi there!');
    await answerAs(mirabel.id, 'Coffee?');
    expectLabelled(await newest('activity_messages'), ['Kimberlyn', 'Mirabel']);

    t.clock.advance(25 * HOUR);
    await remindOfUnread(t.ctx);
    const [reminder] = await mailsTo(t, me.email, 'unread_reminder');
    expect(reminder, 'the reminder of unread messages').toBeDefined();
    expectLabelled(reminder, ['Noorella', 'Kimberlyn', 'Mirabel']);
  });
});
