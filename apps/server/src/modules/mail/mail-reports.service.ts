import type { Database } from '@amora/db';
import type { EventBus } from '../../lib/events';
import { dbOf, withTransaction } from '../../lib/transaction';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import { parseMailReport } from './mail-reports.parse';
import {
  findMemberOfMail,
  findMembersMailedAt,
  hasReport,
  insertReport,
  lockMemberReports,
  type ReportedMember,
  temporaryBouncesSince,
} from './mail-reports.repository';
import { hasVerpAddress, verpOutboxIds, verpSecret } from './verp';

/** A report is a short message with the headers of the one it is about: 1 MB is plenty. */
export const MAIL_REPORT_BODY_LIMIT = 1024 * 1024;

/**
 * Temporary failures (a full mailbox, a greylisting server that gives up) stop a member's mail only when they
 * repeat: this many different mails within TEMPORARY_WINDOW_MS.
 */
export const TEMPORARY_BOUNCES_TO_DISABLE = 3;
const TEMPORARY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** What a report did: stopped the member's mail, was only recorded, was known already, or named no member. */
export type MailReportOutcome = 'disabled' | 'recorded' | 'duplicate' | 'ignored';

interface ReportsContext {
  db: Database;
  events: Pick<EventBus, 'publish'>;
  now: () => Date;
}

/**
 * The member a report is about: the mail named by one of our signed return paths (VERP) in it; else, when it has
 * nothing shaped like one, the one member of the site (or of all sites, when the request names none) who was mailed at the address
 * it names and still has it. A report about a mail to an address the member no longer has is about nobody.
 */
async function memberOf(
  ctx: ReportsContext,
  text: string,
  recipients: readonly string[],
  siteId: number | null,
): Promise<{ member: ReportedMember; mail: string } | null> {
  const ids = verpOutboxIds(await verpSecret(ctx), text);
  for (const outboxId of ids) {
    const member = await findMemberOfMail(dbOf(ctx), outboxId);
    if (member) return member.currentAddress ? { member, mail: String(outboxId) } : null;
  }
  // A return path of ours that names no member (forged, damaged, or of a purged mail): the addresses in the
  // report are not believed either, or anyone could stop anyone's mail by writing their address into one.
  if (ids.length > 0 || hasVerpAddress(text)) return null;
  const candidates = new Map<number, ReportedMember>();
  for (const address of recipients) {
    for (const member of await findMembersMailedAt(dbOf(ctx), address, siteId)) candidates.set(member.userId, member);
  }
  const [only] = candidates.values();
  return candidates.size === 1 ? { member: only, mail: '?' } : null;
}

/**
 * A delivery status notification (RFC 3464) or a feedback report (ARF, RFC 5965) as it came in, the whole raw
 * message: a permanent bounce stops the member's mail with 'bounce', a temporary one only once
 * TEMPORARY_BOUNCES_TO_DISABLE different mails failed within TEMPORARY_WINDOW_MS, a spam complaint (Feedback-Type
 * abuse) with 'fbl'. Each report is recorded once per member (`mail_reports`, its id at the start of the
 * detail): the same report again changes nothing. `siteId`: the site the report came in for, if known.
 */
export async function handleMailReport(ctx: ReportsContext, raw: Buffer, siteId: number | null): Promise<MailReportOutcome> {
  const report = await parseMailReport(raw);
  if (!report) return 'ignored';
  const found = await memberOf(ctx, report.text, report.recipients, siteId);
  if (!found) return 'ignored';
  const { member, mail } = found;
  const prefix = `report ${report.reportId} · `;
  const outcome = await withTransaction(ctx, async (tx) => {
    await lockMemberReports(tx, member.userId);
    if (await hasReport(tx, member.userId, prefix)) return 'duplicate' as const;
    const now = ctx.now();
    await insertReport(tx, {
      userId: member.userId,
      kind: report.kind,
      status: report.status,
      detail: `${prefix}mail ${mail} · ${report.detail}`,
      createdAt: now,
    });
    let disable: 'bounce' | 'fbl' | null = null;
    if (report.kind === 'fbl') disable = report.status === 'abuse' ? 'fbl' : null;
    else if (report.status === 'permanent') disable = 'bounce';
    else {
      const details = await temporaryBouncesSince(tx, member.userId, new Date(now.getTime() - TEMPORARY_WINDOW_MS));
      // Different mails count; reports about an unknown mail each count as one.
      const mails = new Set(details.map((detail, i) => /· mail (\d+) ·/.exec(detail)?.[1] ?? `?${i}`));
      if (mails.size >= TEMPORARY_BOUNCES_TO_DISABLE) disable = 'bounce';
    }
    if (disable && (await addNotificationsDisabled(ctx, member.userId, disable))) return 'disabled' as const;
    return 'recorded' as const;
  });
  if (outcome === 'disabled') ctx.events.publish({ type: 'account.changed', siteId: member.siteId, userId: member.userId });
  return outcome;
}
