/**
 * The operator console: staff accounts (never members), their sessions and recovery codes, the audit log of every
 * console action, the sanctions moderation puts on members, and the members' data exports.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';

/**
 * A staff member: admin (everything), moderator (the queue and member views), support (member support) or operator
 * (answers members as the fictional profiles, in the inbox).
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').$type<'admin' | 'moderator' | 'support' | 'operator'>().notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Base32 TOTP secret; null until the staff member has set up their authenticator (their first login). */
    totpSecret: text('totp_secret'),
    /** The last TOTP time step accepted: a code is good once (no replay within its window). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The console's language: English or one of the sites' languages. */
    language: text('language').notNull().default('en'),
    isActive: boolean('is_active').notNull().default(true),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('staff_users_email_idx').on(sql`lower(${t.email})`),
    check('staff_users_role_check', sql`${t.role} in ('admin', 'moderator', 'support', 'operator')`),
  ],
);

/** One-time recovery codes of a staff member (hashed), shown once when the authenticator is set up. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.codeHash] })],
);

/**
 * A console session (its own cookie, never a member's). `second_factor_at` is null while only the password is
 * known: such a session may only complete the login (the TOTP code, or set up the authenticator).
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    /** SHA-256 of the cookie's token. */
    id: text('id').primaryKey(),
    staffId: bigint('staff_id', { mode: 'number' })
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);

/** Every console action: who, what, on which object, before and after, when and from where. Never edited. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    /** Null for the command line (the first admin). */
    staffId: bigint('staff_id', { mode: 'number' }).references(() => staffUsers.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull().default(''),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_object_idx').on(t.objectType, t.objectId)],
);

/** What moderation did to a member: a warning, a suspension until a moment, or a ban; lifted when undone. */
export const memberSanctions = pgTable(
  'member_sanctions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'warning' | 'suspension' | 'ban'>().notNull(),
    reason: text('reason').notNull().default(''),
    /** The end of a suspension; null for a warning or a ban. */
    until: timestamp('until', { withTimezone: true }),
    /** The report it answered, if any. */
    complaintId: bigint('complaint_id', { mode: 'number' }),
    staffId: bigint('staff_id', { mode: 'number' }).references(() => staffUsers.id, { onDelete: 'set null' }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: bigint('lifted_by', { mode: 'number' }).references(() => staffUsers.id, { onDelete: 'set null' }),
    /** When the member saw a warning (a warning shows until then). */
    seenAt: timestamp('seen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('member_sanctions_user_idx').on(t.userId, t.createdAt),
    check('member_sanctions_kind_check', sql`${t.kind} in ('warning', 'suspension', 'ban')`),
  ],
);

/** A member's download of their data (GDPR art. 15 and 20): prepared by a job, mailed as a link that expires. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'ready' | 'failed' | 'expired'>().notNull().default('pending'),
    /** SHA-256 of the download link's token. */
    tokenHash: text('token_hash'),
    /** The file's key under the data directory (exports/<key>.zip). */
    fileKey: text('file_key'),
    sizeBytes: integer('size_bytes'),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('data_exports_token_idx').on(t.tokenHash),
    check('data_exports_status_check', sql`${t.status} in ('pending', 'ready', 'failed', 'expired')`),
  ],
);

/**
 * The fictional-profile inbox: an operator's claim on a conversation while they answer it, so two never answer
 * the same one at once; it ends when they answer, release it or it times out.
 */
export const inboxClaims = pgTable('inbox_claims', {
  conversationId: bigint('conversation_id', { mode: 'number' }).primaryKey(),
  staffId: bigint('staff_id', { mode: 'number' })
    .notNull()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
