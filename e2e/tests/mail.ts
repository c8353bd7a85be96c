import { expect } from '@playwright/test';

interface Mail {
  to: string[];
  /** The From header as the mail carried it. */
  from: string;
  /** The envelope sender (the return path a bounce goes to). */
  returnPath: string;
  subject: string;
  text: string;
  html: string;
  /** The List-Unsubscribe and List-Unsubscribe-Post headers' values of a mail that is not essential (RFC 8058). */
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
}

/** Waits for a mail to `to` (received by the real SMTP server of the run) and returns the newest. */
export async function waitForMail(to: string, match: (mail: Mail) => boolean = () => true): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`http://127.0.0.1:${process.env.SMTP_SINK_HTTP_PORT ?? 4174}/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as Mail[];
        found = list.find(match);
        return Boolean(found);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found as Mail;
}

/**
 * The link of a mail, checked to lead to the site's configured domain (`amora.localhost` on the run's port,
 * never the host the request came in on), as a path to open on the journey's own address: another host of
 * the same site, so the browser keeps the journey's cookies.
 */
export function linkIn(mail: Mail, domain = 'amora.localhost'): string {
  const match = /https?:\/\/[^\s)"'<>]+(?:token=)[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!match) throw new Error(`No link in mail "${mail.subject}": ${mail.text}`);
  const url = new URL(match[0]);
  expect(url.hostname, `link of mail "${mail.subject}"`).toBe(domain);
  return `${url.pathname}${url.search}`;
}

let counter = 0;
export function uniqueEmail(prefix: string, project: string): string {
  counter++;
  return `${prefix}-${project}-${Date.now().toString(36)}-${counter}@example.com`;
}
