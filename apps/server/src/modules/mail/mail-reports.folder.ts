import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '@amora/db';
import type { EventBus } from '../../lib/events';
import { handleMailReport, MAIL_REPORT_BODY_LIMIT, type MailReportOutcome } from './mail-reports.service';

interface FolderContext {
  db: Database;
  events: Pick<EventBus, 'publish'>;
  now: () => Date;
  config: { mail?: { reportsDir: string | null } };
}

/** At most this many messages a run (the next run, a minute later, takes the rest). */
const BATCH = 500;

/**
 * The `mail.read-reports` job (every minute): the bounce mailbox as a Maildir (MAIL_REPORTS_DIR, delivered to by
 * the MTA or fetched into by fetchmail/getmail): each message in `new/` is read as POST /api/mail-reports reads
 * one, then moved to `cur/` marked seen (`:2,S`), so it is read once. A message over 1 MB is moved unread.
 * Nothing happens without MAIL_REPORTS_DIR. Answers how many messages each outcome had.
 */
export async function readMailReportsFolder(ctx: FolderContext): Promise<Partial<Record<MailReportOutcome | 'too_large', number>>> {
  const dir = ctx.config.mail?.reportsDir ?? null;
  const counts: Partial<Record<MailReportOutcome | 'too_large', number>> = {};
  if (!dir) return counts;
  const fresh = join(dir, 'new');
  const seen = join(dir, 'cur');
  await mkdir(seen, { recursive: true });
  const names = (await readdir(fresh).catch(() => [] as string[])).filter((name) => !name.startsWith('.')).sort();
  for (const name of names.slice(0, BATCH)) {
    const path = join(fresh, name);
    const info = await stat(path).catch(() => null);
    // Taken by another reader meanwhile, or not a file.
    if (!info?.isFile()) continue;
    const outcome = info.size > MAIL_REPORT_BODY_LIMIT ? 'too_large' : await handleMailReport(ctx, await readFile(path), null);
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    await rename(path, join(seen, `${name.split(':')[0]}:2,S`)).catch(() => {});
  }
  return counts;
}
