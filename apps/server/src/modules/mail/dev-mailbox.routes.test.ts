import { translate } from '@amora/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import type { Site } from '../sites/sites.service';

/** The reset mail below is in German: the catalogue decides its subject. */
const GERMAN_RESET = translate('de', 'reset.subject', { site: 'Herzklopfen' }, 'emails');

let t: TestApp;
const host = { host: 'localhost:3000' };

interface MailboxEmail {
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
  status: string;
}

async function mailbox(to?: string): Promise<MailboxEmail[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox.php', query: to ? { to } : {}, headers: host });
  expect(res.statusCode).toBe(200);
  return res.json().emails;
}

beforeAll(async () => {
  t = await createTestApp();
  const amora = (await t.ctx.sites.forHost('amora.localhost')) as Site;
  const herzklopfen = (await t.ctx.sites.forHost('herzklopfen.localhost')) as Site;
  await t.ctx.mailer.send({
    kind: 'activation',
    site: amora,
    locale: 'en',
    to: 'first@example.com',
    userId: null,
    vars: { name: 'Fi <b>rst</b>', link: 'https://amora.localhost/activate/first-token' },
  });
  await t.ctx.mailer.send({
    kind: 'reset',
    site: herzklopfen,
    locale: 'de',
    to: 'second@example.com',
    userId: null,
    vars: { name: 'Sec', link: 'https://herzklopfen.localhost/reset-password/do?token=second-token', hours: 24 },
  });
  await t.ctx.mailer.send({
    kind: 'password_changed',
    site: amora,
    locale: 'en',
    to: 'First@Example.com',
    userId: null,
    vars: { name: 'Fi' },
  });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/dev/mailbox.php', () => {
  it('answers every email newest first, with its text and HTML', async () => {
    const emails = await mailbox();
    expect(emails.map((e) => e.to)).toEqual(['First@Example.com', 'second@example.com', 'first@example.com']);
    const [, reset] = emails;
    expect(reset).toMatchObject({ kind: 'reset', status: 'dev', subject: GERMAN_RESET });
    expect(reset.text).toContain('https://herzklopfen.localhost/reset-password/do?token=second-token');
    expect(reset.html).toContain('second-token');
    expect(new Date(reset.created_at).toISOString()).toBe(reset.created_at);
  });

  it('filters by recipient, ignoring case', async () => {
    const emails = await mailbox('FIRST@example.com');
    expect(emails.map((e) => e.kind)).toEqual(['password_changed', 'activation']);
    expect(emails[1].text).toContain('https://amora.localhost/activate/first-token');
    expect(await mailbox('nobody@example.com')).toEqual([]);
  });
});

describe('GET /dev/mailbox', () => {
  it('lists the emails as a page without scripts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox', headers: host });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).not.toContain('<script');
    const [newest] = await mailbox();
    expect(res.body).toContain(`href="/dev/mailbox/${newest.id}"`);
    for (const text of [GERMAN_RESET, 'second@example.com', 'Herzklopfen', 'Amora', 'dev', 'activation']) {
      expect(res.body).toContain(text);
    }
    const filtered = await t.app.inject({ method: 'GET', url: '/dev/mailbox?to=second@example.com', headers: host });
    expect(filtered.body).toContain('second@example.com');
    expect(filtered.body).not.toContain('first@example.com');
  });

  it('shows one email as it was sent, with the names in it escaped', async () => {
    const [activation] = await mailbox('first@example.com').then((all) => all.filter((e) => e.kind === 'activation'));
    const res = await t.app.inject({ method: 'GET', url: `/dev/mailbox/${activation.id}`, headers: host });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe(activation.html);
    expect(res.body).toContain('Fi &#60;b&#62;rst&#60;/b&#62;');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it.each(['999999', 'abc', '0', '-1', '1.5', '99999999999999999999'])('answers 404 for the unknown id %s, never a 500', async (id) => {
    const res = await t.app.inject({ method: 'GET', url: `/dev/mailbox/${id}`, headers: host });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Email not found');
  });
});

describe('in production', () => {
  it('has no dev mailbox', async () => {
    const prod = await createTestApp({ isProduction: true });
    try {
      for (const url of ['/dev/mailbox', '/dev/mailbox/:id', '/api/dev/mailbox.php']) {
        expect(prod.app.hasRoute({ method: 'GET', url }), url).toBe(false);
      }
      const api = await prod.app.inject({ method: 'GET', url: '/api/dev/mailbox.php', headers: host });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ error: 'not_found' });
      for (const url of ['/dev/mailbox', '/dev/mailbox/1']) {
        const page = await prod.app.inject({ method: 'GET', url, headers: host });
        expect(page.statusCode, url).not.toBe(200);
        expect(page.body).not.toContain('Dev mailbox');
      }
    } finally {
      await prod.close();
    }
  });
});
