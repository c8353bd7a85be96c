import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES } from '@amora/contracts';
import { localesDir } from '@amora/i18n';
import { describe, expect, it } from 'vitest';
import type { Site } from '../sites/sites.service';
import type { MailKind } from './templates';
import { countryName, mailLocale, renderEmail } from './templates';

const site = {
  id: 2,
  name: 'Herzklopfen',
  domain: 'herzklopfen.localhost',
  supportEmail: 'hilfe@herzklopfen.example',
  company: { name: 'Heartline Digital Ltd', address: '14 Fitzwilliam Square', city: 'Dublin 2, D02 X285', country: 'IE' },
} as unknown as Site;

const VARS: Record<MailKind, Record<string, string | number>> = {
  activation: { name: 'Alex', link: 'https://herzklopfen.localhost/activate/t1' },
  reset: { name: 'Alex', link: 'https://herzklopfen.localhost/reset-password/do?token=t2', hours: 24 },
  mail_change: { name: 'Alex', link: 'https://herzklopfen.localhost/mail-change/t3', newEmail: 'alex.new@example.com' },
  mail_change_notice: { name: 'Alex', newEmail: 'alex.new@example.com' },
  deleted: { name: 'Alex', link: 'https://herzklopfen.localhost/reactivate/t4', days: 14 },
  reactivated: { name: 'Alex' },
  password_changed: { name: 'Alex' },
  data_export: { name: 'Alex', link: 'https://herzklopfen.localhost/api/data-export.php?token=t6', days: 7 },
  report_handled: { name: 'Alex', reference: 'C-7K2M9Q4D' },
  activity_message: { name: 'Alex', from: 'Mia', count: 2, link: 'https://herzklopfen.localhost/members/7/chat' },
  activity_messages: { name: 'Alex', count: 5, link: 'https://herzklopfen.localhost/chats' },
  activity_match: { name: 'Alex', from: 'Mia', link: 'https://herzklopfen.localhost/members/7' },
  activity_like: { name: 'Alex', from: 'Mia', link: 'https://herzklopfen.localhost/likes' },
  activity_likes: { name: 'Alex', count: 3, link: 'https://herzklopfen.localhost/likes' },
  unread_reminder: { name: 'Alex', count: 4, link: 'https://herzklopfen.localhost/chats' },
  reminder_confirm: { name: 'Alex', link: 'https://herzklopfen.localhost/api/activate.php?token=t5' },
  reminder_profile: { name: 'Alex', link: 'https://herzklopfen.localhost/profile' },
  weekly_update: { name: 'Alex', link: 'https://herzklopfen.localhost/chats' },
  news: { name: 'Alex', subject: 'News from Herzklopfen', body: 'Our new app is here: try it today.' },
  promotions: { name: 'Alex', subject: 'A weekend offer from Herzklopfen', body: 'Twice the credits this weekend.' },
};

describe('renderEmail', () => {
  for (const [kind, vars] of Object.entries(VARS) as [MailKind, Record<string, string | number>][]) {
    it(`renders ${kind} with every placeholder filled, in HTML and text alike`, () => {
      const mail = renderEmail(kind, 'en', site, vars);
      expect(mail.subject).toContain('Herzklopfen');
      for (const part of [mail.subject, mail.html, mail.text]) expect(part).not.toMatch(/\{\w+\}/);
      for (const part of [mail.html, mail.text]) {
        expect(part).toContain('Hello Alex,');
        expect(part).toContain('Heartline Digital Ltd, 14 Fitzwilliam Square, Dublin 2, D02 X285, Ireland');
        expect(part).toContain('hilfe@herzklopfen.example');
        expect(part).toContain('You receive this email because you have an account on Herzklopfen.');
        for (const value of Object.values(vars)) expect(part).toContain(String(value));
      }
      if (vars.link) {
        expect(mail.html).toContain(`href="${vars.link}"`);
        expect(mail.html).toContain('bgcolor="#c8213a"');
      } else {
        expect(mail.html).not.toContain('bgcolor="#c8213a"');
      }
    });
  }

  it('says what the mail is about in the body', () => {
    expect(renderEmail('reset', 'en', site, VARS.reset).text).toContain('valid for 24 hours');
    expect(renderEmail('deleted', 'en', site, VARS.deleted).text).toContain('within 14 days');
    expect(renderEmail('mail_change_notice', 'en', site, VARS.mail_change_notice).text).toContain('to alex.new@example.com');
  });

  it('escapes every value in the HTML, names included', () => {
    const mail = renderEmail('mail_change', 'en', site, {
      name: '<img src=x onerror=alert(1)>"&',
      newEmail: '"><b>x</b>@example.com',
      link: 'https://herzklopfen.localhost/mail-change/t"onmouseover="alert(1)',
    });
    expect(mail.html).not.toMatch(/<img|<b>|"onmouseover/);
    expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;&#34;&#38;');
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>"&,');
  });

  it("puts a mailing's own subject and text in the site's frame, as text and never as markup", () => {
    const mail = renderEmail('news', 'de', site, {
      name: 'Alex',
      subject: 'Neu: <b>Video</b> {site}',
      body: 'Erster Absatz mit <script>alert(1)</script>.\nZweite Zeile.\n\nZweiter Absatz.',
    });
    expect(mail.subject).toBe('Neu: <b>Video</b> {site}');
    expect(mail.html).toContain(
      '<h1 style="margin:0 0 24px 0;font-family:Arial, Helvetica, sans-serif;font-size:22px;line-height:30px;color:#222222;">Neu: &#60;b&#62;Video&#60;/b&#62; {site}</h1>',
    );
    expect(mail.html).not.toMatch(/<script|<b>/);
    expect(mail.html).toContain('Erster Absatz mit &#60;script&#62;alert(1)&#60;/script&#62;.<br>Zweite Zeile.');
    expect(mail.text).toContain('Erster Absatz mit <script>alert(1)</script>.\nZweite Zeile.\n\nZweiter Absatz.');
    // The frame is the site's, in the mailing's language, with why the member gets it.
    expect(mail.html).toContain('lang="de"');
    expect(mail.text).toContain('Hallo Alex,');
    expect(mail.text).toContain('weil du Neuigkeiten von Herzklopfen erhalten möchtest');
    expect(renderEmail('promotions', 'en', site, VARS.promotions).text).toContain('you chose to receive offers from Herzklopfen');
  });

  it('refuses a link kind without an http(s) link', () => {
    expect(() => renderEmail('activation', 'en', site, { name: 'Alex' })).toThrow(TypeError);
    expect(() => renderEmail('reset', 'en', site, { name: 'Alex', link: 'javascript:alert(1)', hours: 1 })).toThrow(TypeError);
  });

  it("refuses a link to any host but the site's own domain", () => {
    for (const link of [
      'https://attacker.example/reset-password/do?token=t2',
      'https://herzklopfen.localhost.attacker.example/reset-password/do?token=t2',
      'https://herzklopfen.localhost@attacker.example/reset-password/do?token=t2',
      'http://amora.localhost:3000/reset-password/do?token=t2',
    ]) {
      expect(() => renderEmail('reset', 'en', site, { name: 'Alex', link, hours: 2 }), link).toThrow(
        /may only link to herzklopfen\.localhost/,
      );
    }
    expect(
      renderEmail('reset', 'en', site, { name: 'Alex', link: 'http://HERZKLOPFEN.localhost:3000/x?token=t2', hours: 2 }).text,
    ).toContain('http://HERZKLOPFEN.localhost:3000/x?token=t2');
  });

  it("writes in the member's language when it has emails, else in the fallback (it, then en)", () => {
    const has = (locale: string) => existsSync(join(localesDir, locale, 'emails.json'));
    const fallback = has('it') ? 'it' : 'en';
    for (const locale of LOCALES) {
      expect(mailLocale('activation', locale), locale).toBe(has(locale) ? locale : fallback);
      // A kind whose subject counts (subject_one, subject_other) is written in the member's language too.
      expect(mailLocale('activity_messages', locale), locale).toBe(has(locale) ? locale : fallback);
    }
    expect(mailLocale('activation', 'de-DE')).toBe(mailLocale('activation', 'de'));
    expect(mailLocale('activation', '../../../etc')).toBe(fallback);
    const german = renderEmail('activation', 'de-DE', site, VARS.activation);
    expect(german.subject).toBe(renderEmail('activation', mailLocale('activation', 'de'), site, VARS.activation).subject);
    if (!has('de')) expect(german.html).toContain(`lang="${fallback}"`);
  });

  it('names the company country in the language of the mail', () => {
    expect(countryName('NL', 'en')).toBe('Netherlands');
    expect(countryName('NL', 'de')).toBe('Niederlande');
    expect(countryName('NL', 'no')).toBe('Nederland');
    expect(countryName('zz-bad', 'en')).toBe('zz-bad');
  });
});
