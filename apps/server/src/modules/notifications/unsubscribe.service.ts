import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPES, type NotificationType, type UnsubscribeInfo } from '@amora/contracts';
import type { AppContext } from '../../context';
import { serverKey } from '../../lib/server-keys';
import { dbOf } from '../../lib/transaction';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import { type Site, siteUrl } from '../sites/sites.service';
import * as rows from './notifications.repository';

/**
 * Unsubscribe links (RFC 8058 and a link per type in each mail that is not essential). A token names the member
 * and the type of the mail, signed with the server's unsubscribe key (lib/server-keys.ts), so it works without a
 * login and cannot be made for someone else; it holds no address. It never expires: an old mail's link still works.
 *
 * - The one-click link of the List-Unsubscribe header, which a mail client POSTs to: all mail that is not
 *   essential stops (notifications_disabled gets `listunsubscribe`), as the mail client's button promises.
 * - The link in the mail's footer opens a page (/unsubscribe) that offers to stop that type, or all; a GET of it
 *   changes nothing (link scanners open every link), only its buttons' POST does.
 */

const secret = (ctx: AppContext) =>
  serverKey(ctx, 'unsubscribe', () => ({ publicKey: '', privateKey: randomBytes(32).toString('base64url') })).then((k) => k.privateKey);

function sign(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** The token for the member's mail of `type`. */
async function unsubscribeToken(ctx: AppContext, userId: number, type: NotificationType): Promise<string> {
  const payload = Buffer.from(`${userId}.${type}`).toString('base64url');
  return `${payload}.${sign(await secret(ctx), payload)}`;
}

/** The links a mail that is not essential carries: the footer's page, the notifications page and the one-click URL. */
export async function unsubscribeLinks(ctx: AppContext, site: Site, userId: number, type: NotificationType) {
  const token = await unsubscribeToken(ctx, userId, type);
  return {
    link: siteUrl(ctx.config, site, `/unsubscribe?t=${token}`),
    preferences: siteUrl(ctx.config, site, '/notifications'),
    oneClick: siteUrl(ctx.config, site, `/api/unsubscribe.php?t=${token}`),
  };
}

/** The member and type a token names, when its signature is right. */
async function verify(ctx: AppContext, token: string): Promise<{ userId: number; type: NotificationType } | null> {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(await secret(ctx), payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [id, type] = Buffer.from(payload, 'base64url').toString().split('.');
  const userId = Number(id);
  if (!Number.isSafeInteger(userId) || userId <= 0 || !(NOTIFICATION_TYPES as readonly string[]).includes(type)) return null;
  return { userId, type: type as NotificationType };
}

/** The member a token names, on this site (a token of another site's member is no token here). */
async function memberOf(ctx: AppContext, site: Site, token: string) {
  const found = await verify(ctx, token);
  if (!found) return null;
  const recipient = await rows.findRecipient(dbOf(ctx), found.userId);
  if (!recipient || recipient.siteId !== site.id || recipient.status === 'deleted') return null;
  return { ...found, recipient };
}

/** What the unsubscribe page shows for a token (null: not a valid one); changes nothing. */
export async function describeUnsubscribe(ctx: AppContext, site: Site, token: string): Promise<UnsubscribeInfo | null> {
  const member = await memberOf(ctx, site, token);
  if (!member) return null;
  return { type: member.type, site: site.name, done: member.recipient.notificationsDisabled.includes('listunsubscribe') };
}

/**
 * Unsubscribes: `scope` 'type' turns the token's type off by mail; 'all' stops all mail that is not essential
 * (`listunsubscribe`). Answers false for a token that is not valid here. Doing it twice changes nothing more.
 */
export async function unsubscribe(ctx: AppContext, site: Site, token: string, scope: 'type' | 'all'): Promise<boolean> {
  const member = await memberOf(ctx, site, token);
  if (!member) return false;
  if (scope === 'type')
    await rows.upsertPreferences(dbOf(ctx), member.userId, [{ type: member.type, channel: 'email', enabled: false }], ctx.now());
  else await addNotificationsDisabled(ctx, member.userId, 'listunsubscribe');
  return true;
}
