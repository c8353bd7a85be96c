import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '@amora/db';
import { serverKey } from '../../lib/server-keys';

/**
 * VERP (variable envelope return path): every mail goes out with its own envelope sender,
 * `bounces+<outboxId>-<sig>@<domain>`, so a bounce or a spam report names the mail (and so the member) it is
 * about. `sig` is a short HMAC of the outbox id under the server's 'verp' key: a report for an address made up
 * by someone else names no mail.
 */
const SIG_LENGTH = 12;
const VERP_PATTERN = /\bbounces\+([1-9]\d{0,14})-([0-9a-f]{12})@/gi;

/** The server's VERP secret (made once, shared by every process through server_keys). */
export async function verpSecret(ctx: { db: Database }): Promise<string> {
  const key = await serverKey(ctx, 'verp', () => ({ publicKey: '', privateKey: randomBytes(32).toString('base64url') }));
  return key.privateKey;
}

function signatureOf(secret: string, outboxId: number): string {
  return createHmac('sha256', secret).update(`verp:${outboxId}`).digest('hex').slice(0, SIG_LENGTH);
}

/** The envelope sender of the stored mail `outboxId`. */
export function verpAddress(secret: string, outboxId: number, domain: string): string {
  return `bounces+${outboxId}-${signatureOf(secret, outboxId)}@${domain}`;
}

/** Whether `text` holds anything shaped like one of our return paths, signed correctly or not. */
export function hasVerpAddress(text: string): boolean {
  return text.search(VERP_PATTERN) !== -1;
}

/**
 * The outbox ids named by correctly signed VERP addresses anywhere in `text` (a report's headers, its
 * delivery-status fields, the returned message), first seen first; forged or damaged ones are left out.
 */
export function verpOutboxIds(secret: string, text: string): number[] {
  const found: number[] = [];
  for (const [, id, sig] of text.matchAll(VERP_PATTERN)) {
    const outboxId = Number(id);
    const expected = Buffer.from(signatureOf(secret, outboxId));
    const given = Buffer.from(sig.toLowerCase());
    if (timingSafeEqual(expected, given) && !found.includes(outboxId)) found.push(outboxId);
  }
  return found;
}
