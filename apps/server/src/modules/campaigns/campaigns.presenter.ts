import type { Locale, Mailing, MailingProgress, MailingSummary } from '@amora/contracts';
import type { MailingWithAuthor, ProgressCounts } from './campaigns.repository';

const NO_PROGRESS: ProgressCounts = { recipients: 0, queued: 0, sent: 0, failed: 0, notSent: 0 };

function presentProgress(counts: ProgressCounts = NO_PROGRESS): MailingProgress {
  return { recipients: counts.recipients, queued: counts.queued, sent: counts.sent, failed: counts.failed, not_sent: counts.notSent };
}

/** A mailing in the list: its subject in the site's default locale and how far its sending got. */
export function presentMailingSummary(
  row: MailingWithAuthor,
  site: { name: string; defaultLocale: Locale },
  progress: ProgressCounts | undefined,
): MailingSummary {
  const subject = row.texts[site.defaultLocale]?.subject ?? Object.values(row.texts)[0]?.subject ?? '';
  return {
    id: row.id,
    site_id: row.siteId,
    site_name: site.name,
    kind: row.kind,
    status: row.status,
    subject,
    send_at: row.sendAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy === null ? null : { id: row.createdBy, name: row.authorName ?? '' },
    progress: presentProgress(progress),
  };
}

/** A mailing with its texts, its site's locales and how many members it would reach now. */
export function presentMailing(
  row: MailingWithAuthor,
  site: { name: string; defaultLocale: Locale; locales: Locale[] },
  progress: ProgressCounts | undefined,
  optedIn: number,
): Mailing {
  return {
    ...presentMailingSummary(row, site, progress),
    texts: row.texts,
    default_locale: site.defaultLocale,
    locales: site.locales,
    updated_at: row.updatedAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    opted_in: optedIn,
  };
}
