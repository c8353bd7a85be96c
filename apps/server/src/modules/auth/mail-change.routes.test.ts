import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  currentUser,
  DEMO,
  HERZ,
  latestToken,
  login,
  mailsTo,
  profileOf,
  signup as signupUnconfirmed,
  tokenOf,
  uniqueEmail,
  userRow,
} from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';
import { MAIL_CHANGE_MAILS_PER_ADDRESS } from './mail-change.service';

const ON_REDIS = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

const ROUTE = '/api/mail-change.php';

/** A member who signed up and confirmed their address (only they may move the account to another). */
async function signup(t: TestApp, body: Record<string, unknown> = {}, options: { ip?: string; host?: string } = {}) {
  const member = await signupUnconfirmed(t, body, options);
  const token = await latestToken(t, member.email, 'activation');
  const activated = await call(t, 'GET', `/api/activate.php?token=${token}`, undefined, options);
  expect(activated.headers.location).toMatch(/\/activate\/done$/);
  return member;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function ask(cookie: string | undefined, body: Record<string, unknown>, ip: string, host?: string) {
  return call(t, 'POST', ROUTE, body, { cookie, ip, host });
}

function confirm(token: string, ip: string, cookie?: string, host?: string) {
  return call(t, 'PUT', ROUTE, { token }, { ip, cookie, host });
}

describe('POST /api/mail-change.php', () => {
  it('needs a session', async () => {
    const res = await ask(undefined, { password: 'whatever-it-is', new_email: uniqueEmail() }, '10.6.0.1');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
  });

  it('refuses a wrong password with a 403 on the password field and sends nothing', async () => {
    const member = await signup(t, {}, { ip: '10.6.0.2' });
    const target = uniqueEmail('target');
    const res = await ask(member.cookie, { password: 'not-my-password', new_email: target }, '10.6.0.2');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'wrong_password', field: 'password', message_key: 'auth.errors.wrongPassword' });
    expect(await mailsTo(t, target)).toHaveLength(0);
    expect(await mailsTo(t, member.email, 'mail_change_notice')).toHaveLength(0);
  });

  it('refuses an address another member of the site has with a 409 on new_email, in any case', async () => {
    const member = await signup(t, {}, { ip: '10.6.0.3' });
    for (const address of [DEMO.email, DEMO.email.toUpperCase()]) {
      const res = await ask(member.cookie, { password: member.password, new_email: address }, '10.6.0.3');
      expect(res.statusCode, address).toBe(409);
      expect(res.json()).toMatchObject({ error: 'email_taken', field: 'new_email' });
    }
    expect(await mailsTo(t, member.email, 'mail_change_notice')).toHaveLength(0);
    expect(await mailsTo(t, DEMO.email)).toHaveLength(0);
  });

  it('rejects an invalid or missing address with a 400, and the own address', async () => {
    const member = await signup(t, {}, { ip: '10.6.0.4' });
    for (const new_email of ['not-an-email', '', 'a@b']) {
      const res = await ask(member.cookie, { password: member.password, new_email }, '10.6.0.4');
      expect(res.statusCode, new_email).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'new_email', message: 'Invalid email' });
    }
    const missing = await ask(member.cookie, { password: member.password }, '10.6.0.4');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('new_email');

    const same = await ask(member.cookie, { password: member.password, new_email: member.email.toUpperCase() }, '10.6.0.4');
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ error: 'same_email', field: 'new_email' });
    expect(await mailsTo(t, member.email, 'mail_change_notice')).toHaveLength(0);
  });

  it('refuses a member who has not confirmed their own address with a 403, and sends nothing', async () => {
    const member = await signupUnconfirmed(t, {}, { ip: '10.6.0.6' });
    const target = uniqueEmail('unconfirmed-target');
    const res = await ask(member.cookie, { password: member.password, new_email: target }, '10.6.0.6');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'email_unconfirmed', message_key: 'auth.errors.mailChangeUnconfirmed' });
    expect(await mailsTo(t, target)).toHaveLength(0);
    expect(await mailsTo(t, member.email, 'mail_change_notice')).toHaveLength(0);
    expect((await userRow(t, member.user.id)).email).toBe(member.email);
  });

  it('needs the client header', async () => {
    const member = await signup(t, {}, { ip: '10.6.0.5' });
    const target = uniqueEmail('target');
    const res = await call(
      t,
      'POST',
      ROUTE,
      { password: member.password, new_email: target },
      {
        cookie: member.cookie,
        ip: '10.6.0.5',
        client: false,
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
    expect(await mailsTo(t, target)).toHaveLength(0);
  });
});

describe('mail change, end to end', () => {
  it('sends the link to the new address and a notice to the old one; the link changes the address once', async () => {
    const member = await signup(t, {}, { ip: '10.6.1.1' });
    const newEmail = uniqueEmail('moved');

    const res = await ask(member.cookie, { password: member.password, new_email: `  ${newEmail.toUpperCase()} ` }, '10.6.1.1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    const linkMails = await mailsTo(t, newEmail);
    expect(linkMails).toHaveLength(1);
    expect(linkMails[0]).toMatchObject({ kind: 'mail_change', userId: member.user.id, toAddress: newEmail });
    expect(linkMails[0].text).toMatch(/http:\/\/amora\.localhost:3000\/mail-change\/do\?token=[A-Za-z0-9_-]{43}/);
    const notices = await mailsTo(t, member.email, 'mail_change_notice');
    expect(notices).toHaveLength(1);
    expect(notices[0].text).not.toMatch(/token=/);
    expect(await mailsTo(t, member.email, 'mail_change')).toHaveLength(0);

    // Nothing changes before the link is opened.
    expect((await userRow(t, member.user.id)).email).toBe(member.email);

    const token = await latestToken(t, newEmail, 'mail_change');
    const done = await confirm(token, '10.6.1.1');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ ok: true, email: newEmail });
    const row = await userRow(t, member.user.id);
    expect(row.email).toBe(newEmail);
    // Opening the link proves the address is theirs.
    expect(row.status).toBe('confirmed');
    expect((await profileOf(t, member.user.id)).status).toBe('active');
    expect((await currentUser(t, member.cookie))?.email).toBe(newEmail);

    expect((await login(t, member.email, member.password, { ip: '10.6.1.2' })).statusCode).toBe(401);
    expect((await login(t, newEmail, member.password, { ip: '10.6.1.2' })).statusCode).toBe(200);

    const again = await confirm(token, '10.6.1.1');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'link_invalid', message: 'Link expired or invalid, request a new email' });
    expect((await userRow(t, member.user.id)).email).toBe(newEmail);
  });

  it('refuses an unknown token, and a link older than a day', async () => {
    const unknown = await confirm('y'.repeat(43), '10.6.1.3');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('link_invalid');

    const member = await signup(t, {}, { ip: '10.6.1.3' });
    const newEmail = uniqueEmail('late');
    expect((await ask(member.cookie, { password: member.password, new_email: newEmail }, '10.6.1.3')).statusCode).toBe(200);
    const token = await latestToken(t, newEmail, 'mail_change');
    t.clock.advance(25 * 3_600_000);
    const res = await confirm(token, '10.6.1.3');
    expect(res.statusCode).toBe(400);
    expect((await userRow(t, member.user.id)).email).toBe(member.email);
  });

  it('refuses the link when the address was taken in the meantime', async () => {
    const member = await signup(t, {}, { ip: '10.6.1.4' });
    const contested = uniqueEmail('contested');
    expect((await ask(member.cookie, { password: member.password, new_email: contested }, '10.6.1.4')).statusCode).toBe(200);
    const token = await latestToken(t, contested, 'mail_change');
    const other = await signup(t, { email: contested }, { ip: '10.6.1.4' });

    const res = await confirm(token, '10.6.1.4');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'email_taken', field: 'new_email' });
    expect((await userRow(t, member.user.id)).email).toBe(member.email);
    expect((await userRow(t, other.user.id)).email).toBe(contested);
  });

  it("gives another member's session nothing of it", async () => {
    const owner = await signup(t, {}, { ip: '10.6.2.1' });
    const intruder = await signup(t, { password: 'the-intruders-own-password' }, { ip: '10.6.2.2' });
    const newEmail = uniqueEmail('owner-new');
    expect((await ask(owner.cookie, { password: owner.password, new_email: newEmail }, '10.6.2.1')).statusCode).toBe(200);
    const token = await latestToken(t, newEmail, 'mail_change');

    // The intruder learns nothing: their own account, no mail.
    const seen = await currentUser(t, intruder.cookie);
    expect(seen).toMatchObject({ id: intruder.user.id, email: intruder.email });
    expect(JSON.stringify(seen)).not.toContain(newEmail);
    expect(await mailsTo(t, intruder.email, 'mail_change')).toHaveLength(0);
    expect(await mailsTo(t, intruder.email, 'mail_change_notice')).toHaveLength(0);

    // Knowing the owner's password does not help from the intruder's session: it is checked against the session's account.
    const foreign = await ask(intruder.cookie, { password: owner.password, new_email: uniqueEmail('hijack') }, '10.6.2.2');
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().field).toBe('password');

    // The link never moves the intruder's account, whoever's session carries it.
    const res = await confirm(token, '10.6.2.2', intruder.cookie);
    expect(res.statusCode).toBe(200);
    expect((await userRow(t, intruder.user.id)).email).toBe(intruder.email);
    expect((await userRow(t, owner.user.id)).email).toBe(newEmail);
    expect((await currentUser(t, intruder.cookie))?.email).toBe(intruder.email);
  });

  it('does not accept a link on another site', async () => {
    const member = await signup(t, {}, { ip: '10.6.2.3' });
    const newEmail = uniqueEmail('cross');
    expect((await ask(member.cookie, { password: member.password, new_email: newEmail }, '10.6.2.3')).statusCode).toBe(200);
    const token = await latestToken(t, newEmail, 'mail_change');
    const res = await confirm(token, '10.6.2.3', undefined, HERZ);
    expect(res.statusCode).toBe(400);
    expect((await userRow(t, member.user.id)).email).toBe(member.email);
  });
});

describe('mail change races', () => {
  it('gives a contested address to exactly one of several members confirming at once, never a 500', async () => {
    const members = [];
    for (let i = 1; i <= MAIL_CHANGE_MAILS_PER_ADDRESS; i++) members.push(await signup(t, {}, { ip: `10.6.3.${i}` }));
    const contested = uniqueEmail('race');
    for (const [i, member] of members.entries()) {
      const res = await ask(member.cookie, { password: member.password, new_email: contested }, `10.6.3.${i + 1}`);
      expect(res.statusCode).toBe(200);
    }
    const tokens = (await mailsTo(t, contested, 'mail_change')).map(tokenOf);
    expect(tokens).toHaveLength(3);

    const results = await Promise.all(tokens.map((token, i) => confirm(token, `10.6.3.${i + 1}`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    for (const loser of results.filter((r) => r.statusCode === 409)) {
      expect(loser.json()).toMatchObject({ error: 'email_taken', field: 'new_email' });
    }
    const emails = await Promise.all(members.map(async (m) => (await userRow(t, m.user.id)).email));
    expect(emails.filter((e) => e === contested)).toHaveLength(1);
  });
});

describe('mail bombing', () => {
  it('sends one address at most its few confirmations a day, from all accounts together, however many ask at once', async () => {
    // 20 confirmed accounts, each asking its five times a day, all at once: 100 requests for one stranger's address.
    const members = [];
    for (let i = 1; i <= 20; i++) members.push(await signup(t, {}, { ip: `10.6.4.${i}` }));
    const victim = uniqueEmail('victim');
    const results = await Promise.all(
      members.flatMap((member, i) =>
        Array.from({ length: 5 }, () =>
          ask(member.cookie, { password: member.password, new_email: i % 2 ? victim.toUpperCase() : victim }, `10.6.4.${i + 1}`),
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(MAIL_CHANGE_MAILS_PER_ADDRESS);
    expect(codes.filter((c) => c === 429)).toHaveLength(100 - MAIL_CHANGE_MAILS_PER_ADDRESS);
    const refused = results.find((r) => r.statusCode === 429);
    expect(refused?.json()).toMatchObject({ field: 'new_email', message_key: 'auth.errors.mailChangeAddressLimit' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailsTo(t, victim, 'mail_change')).toHaveLength(MAIL_CHANGE_MAILS_PER_ADDRESS);
    // Only the accounts whose ask was sent told their own address of it.
    const notices = await Promise.all(members.map((m) => mailsTo(t, m.email, 'mail_change_notice')));
    expect(notices.flat()).toHaveLength(MAIL_CHANGE_MAILS_PER_ADDRESS);

    // A day later the address may be asked for again.
    if (ON_REDIS) return; // Redis keeps real time; the harness clock drives the database limiter only.
    t.clock.advance(24 * 3_600_000 + 1_000);
    expect((await ask(members[0].cookie, { password: members[0].password, new_email: victim }, '10.6.4.1')).statusCode).toBe(200);
  });
});

describe('the per-address cap counts mailboxes', () => {
  it('counts the +tag variants of an address, and at Gmail its dotted and googlemail.com forms, as one mailbox', async () => {
    const name = `victim${Date.now().toString(36)}`;
    const gmail = [`${name}+1@gmail.com`, `${name.slice(0, 3)}.${name.slice(3)}@googlemail.com`, `${name.toUpperCase()}+x.y@GMail.com`];
    const other = [`${name}@gmail.com`, `${name}+2@gmail.com`, `${name}+3@googlemail.com`];
    const members = [];
    for (let i = 1; i <= gmail.length + other.length; i++) members.push(await signup(t, {}, { ip: `10.6.6.${i}` }));
    const sent = [];
    for (const [i, address] of gmail.entries()) {
      sent.push((await ask(members[i].cookie, { password: members[i].password, new_email: address }, `10.6.6.${i + 1}`)).statusCode);
    }
    expect(sent).toEqual(Array(MAIL_CHANGE_MAILS_PER_ADDRESS).fill(200));
    for (const [j, address] of other.entries()) {
      const i = gmail.length + j;
      const res = await ask(members[i].cookie, { password: members[i].password, new_email: address }, `10.6.6.${i + 1}`);
      expect([res.statusCode, res.json().message_key], address).toEqual([429, 'auth.errors.mailChangeAddressLimit']);
    }
    // Another mailbox at another provider is counted apart; there dots are part of the name.
    const dotted = await signup(t, {}, { ip: '10.6.6.20' });
    const apart = await ask(
      dotted.cookie,
      { password: dotted.password, new_email: `${name.slice(0, 3)}.${name.slice(3)}+1@example.com` },
      '10.6.6.20',
    );
    expect(apart.statusCode, apart.body).toBe(200);
  });

  it('refuses the +tag variants of an address at any provider once it had its confirmations', async () => {
    const name = `target${Date.now().toString(36)}`;
    const members = [];
    for (let i = 1; i <= MAIL_CHANGE_MAILS_PER_ADDRESS + 1; i++) members.push(await signup(t, {}, { ip: `10.6.7.${i}` }));
    const codes = [];
    for (const [i, member] of members.entries()) {
      codes.push(
        (await ask(member.cookie, { password: member.password, new_email: `${name}+${i}@example.org` }, `10.6.7.${i + 1}`)).statusCode,
      );
    }
    expect(codes).toEqual([...Array(MAIL_CHANGE_MAILS_PER_ADDRESS).fill(200), 429]);
  });
});
