/**
 * News and promotions: mailings staff write in the console for the members of a site who opted in to that kind,
 * and who each got one (modules/campaigns).
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { outboxEmails } from './operations';
import { sites } from './sites';
import { staffUsers } from './staff';

/** A mailing's subject and text in one locale, as its author wrote them (plain text, paragraphs by blank lines). */
export interface MailingText {
  subject: string;
  body: string;
}

/**
 * A mailing: its site, its notification type (`news` or `promotions`, which members opt in to), the texts per
 * locale (the site's default locale always), and where its sending stands: `draft` (being written), `scheduled`
 * (sent from `send_at` on), `sending`, `sent`, or `cancelled` (the rest not sent). `cursor_user_id`: the last
 * member looked at, so each batch goes on after the one before.
 */
export const mailings = pgTable(
  'mailings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    kind: text('kind').$type<'news' | 'promotions'>().notNull(),
    status: text('status').$type<'draft' | 'scheduled' | 'sending' | 'sent' | 'cancelled'>().notNull().default('draft'),
    texts: jsonb('texts').$type<Record<string, MailingText>>().notNull(),
    sendAt: timestamp('send_at', { withTimezone: true }),
    cursorUserId: bigint('cursor_user_id', { mode: 'number' }).notNull().default(0),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('mailings_site_idx').on(t.siteId, t.createdAt),
    check('mailings_kind_check', sql`${t.kind} in ('news', 'promotions')`),
    check('mailings_status_check', sql`${t.status} in ('draft', 'scheduled', 'sending', 'sent', 'cancelled')`),
  ],
);

/**
 * A member a mailing went to: the claim that makes it once per member (the primary key), written in the unit of
 * work that queues their mail (`outbox_id`, the mail whose status tells whether it left), with the locale of the
 * text they got. Goes with the member's account.
 */
export const mailingRecipients = pgTable(
  'mailing_recipients',
  {
    mailingId: bigint('mailing_id', { mode: 'number' })
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    outboxId: bigint('outbox_id', { mode: 'number' }).references(() => outboxEmails.id, { onDelete: 'set null' }),
    locale: text('locale').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.mailingId, t.userId] }), index('mailing_recipients_user_idx').on(t.userId)],
);
