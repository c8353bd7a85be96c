import { expect } from '@playwright/test';

interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Waits for a mail to `to` (received by the real SMTP server of the run) and returns the newest. */
export async function waitForMail(to: string, match: (mail: Mail) => boolean = () => true): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`http://127.0.0.1:4174/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as Mail[];
        found = list.find(match);
        return Boolean(found);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found as Mail;
}

export function linkIn(mail: Mail): string {
  const match = /https?:\/\/[^\s)"'<>]+(?:token=)[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!match) throw new Error(`No link in mail "${mail.subject}": ${mail.text}`);
  return match[0];
}

let counter = 0;
export function uniqueEmail(prefix: string, project: string): string {
  counter++;
  return `${prefix}-${project}-${Date.now().toString(36)}-${counter}@example.com`;
}
