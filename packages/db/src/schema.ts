import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The legal entity that operates one or more sites; the footer's address block comes from here. */
export const companies = pgTable('companies', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  city: text('city').notNull(),
  /** ISO 3166-1 alpha-2; shown in the reader's language. */
  country: text('country').notNull(),
  kvk: text('kvk').notNull().default(''),
  vatNumbers: jsonb('vat_numbers').$type<string[]>().notNull().default([]),
  tradenames: jsonb('tradenames').$type<string[]>().notNull().default([]),
  added: date('added', { mode: 'string' }).notNull(),
});

/** A site text per locale; `en` is always present and is the fallback. */
export type LocalizedText = Record<string, string>;

export type MinimumMessageCosts = Record<string, { costs: number; currency: string }>;

/** A branded site: every setting of spec §3 that is not derived per request. */
export const sites = pgTable(
  'sites',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    domain: text('domain').notNull(),
    hosts: jsonb('hosts').$type<string[]>().notNull().default([]),
    isDefault: boolean('is_default').notNull().default(false),
    name: text('name').notNull(),
    indexTitle: jsonb('index_title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    niche: smallint('niche').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    domainLanguage: text('domain_language').notNull().default('en'),
    languages: jsonb('languages').$type<string[]>().notNull(),
    countries: jsonb('countries').$type<string[]>().notNull(),
    defaultCountry: text('default_country').notNull(),
    visibleProfileFields: jsonb('visible_profile_fields').$type<string[]>().notNull().default([]),
    visibleProfileNotes: jsonb('visible_profile_notes').$type<string[]>().notNull().default([]),
    cdnPrefix: text('cdn_prefix').notNull().default(''),
    messageCredits: integer('message_credits').notNull(),
    signupCredits: integer('signup_credits').notNull(),
    photoCredits: integer('photo_credits').notNull(),
    giftCredits: integer('gift_credits').notNull(),
    messageLength: integer('message_length').notNull(),
    minimumMessageCosts: jsonb('minimum_message_costs').$type<MinimumMessageCosts>().notNull().default({}),
    supportEmail: text('support_email').notNull(),
    supportPhone: text('support_phone').notNull(),
    deleteDiscount: integer('delete_discount').notNull().default(0),
    enableSiteEntryPopup: text('enable_site_entry_popup').notNull().default('yes'),
    enableUsFooter: boolean('enable_us_footer').notNull().default(false),
    searchFields: jsonb('search_fields').$type<string[]>().notNull(),
    fictionalWarning: jsonb('fictional_warning').$type<LocalizedText>().notNull(),
    fictionalSingular: jsonb('fictional_singular').$type<LocalizedText>().notNull(),
    fictionalPlural: jsonb('fictional_plural').$type<LocalizedText>().notNull(),
    fictionalIcon: text('fictional_icon').notNull(),
    refundDays: integer('refund_days').notNull(),
    signups: text('signups').notNull().default('all'),
    loggedOutSearch: boolean('logged_out_search').notNull().default(false),
    loggedOutSearchTrafficsource: boolean('logged_out_search_trafficsource').notNull().default(false),
    interests: jsonb('interests').$type<string[]>().notNull(),
    memberResell: boolean('member_resell').notNull().default(false),
    /** New photos wait as 'pending' until the operator approves them. */
    moderatePhotos: boolean('moderate_photos').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sites_domain_idx').on(t.domain),
    check('sites_niche_check', sql`${t.niche} between 1 and 7`),
    check('sites_entry_popup_check', sql`${t.enableSiteEntryPopup} in ('yes', 'no')`),
    // A delete discount of 100 % would make an order of the fee alone, or of nothing, which the provider refuses.
    check('sites_delete_discount_check', sql`${t.deleteDiscount} between 0 and 99`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    status: text('status').notNull().default('not_confirmed'),
    language: text('language').notNull().default('en'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    credits: integer('credits').notNull().default(0),
    paidUser: boolean('paid_user').notNull().default(false),
    trafficsource: text('trafficsource'),
    tracking: jsonb('tracking').$type<Record<string, string>>().notNull().default({}),
    notificationsDisabled: jsonb('notifications_disabled').$type<string[]>().notNull().default([]),
    /** Whether the member's reading raises read receipts (and they see the partner's); a setting of its own. */
    readReceipts: boolean('read_receipts').notNull().default(true),
    signupDate: timestamp('signup_date', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletionReason: text('deletion_reason'),
    deletionReasonText: text('deletion_reason_text'),
    /** Set by a chargeback: the member can no longer pay by direct debit (spec §8). */
    directDebitBlocked: boolean('direct_debit_blocked').notNull().default(false),
    /** Credits a chargeback took back that the balance could not cover; a later purchase pays them first. */
    creditDebt: integer('credit_debt').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_site_email_idx').on(t.siteId, sql`lower(${t.email})`),
    check('users_credits_check', sql`${t.credits} >= 0`),
    check('users_credit_debt_check', sql`${t.creditDebt} >= 0`),
    check('users_status_check', sql`${t.status} in ('not_confirmed', 'confirmed', 'deleted')`),
    index('users_deleted_idx').on(t.deletedAt),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    name: text('name').notNull(),
    country: text('country').notNull(),
    status: text('status').notNull().default('disabled'),
    isFictional: boolean('is_fictional').notNull().default(false),
    /** Copied from the account at signup; fictional profiles have no account. Search filters on it. */
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    gender: text('gender'),
    sexuality: text('sexuality'),
    hairColour: text('hair_colour'),
    eyeColour: text('eye_colour'),
    bodyType: text('body_type'),
    relationshipStatus: text('relationship_status'),
    /** The genders the member wants to meet (asked after signup); null: not said, taken from gender and sexuality. */
    lookingFor: jsonb('looking_for').$type<string[]>(),
    interests: jsonb('interests').$type<string[]>().notNull().default([]),
    about: text('about').notNull().default(''),
    region: text('region'),
    city: text('city'),
    /** The city's centre, rounded to 0.01°, never the member's own position. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    mainPhotoId: bigint('main_photo_id', { mode: 'number' }),
    /** Kept by the database from main_photo_id: search shows members with a photo first. */
    hasPhoto: boolean('has_photo').notNull().generatedAlwaysAs(sql`main_photo_id is not null`),
    isInvisible: boolean('is_invisible').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('profiles_user_idx').on(t.userId),
    index('profiles_site_idx').on(t.siteId),
    // Member search: members with a photo first, then newest first within a site, filtered by the common fields
    // (keyset on has_photo, id).
    index('profiles_search_idx')
      .on(t.siteId, t.gender, t.country, t.hasPhoto.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.isInvisible} = false`),
    index('profiles_search_gender_idx')
      .on(t.siteId, t.gender, t.hasPhoto.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.isInvisible} = false`),
    index('profiles_search_country_idx')
      .on(t.siteId, t.country, t.hasPhoto.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.isInvisible} = false`),
    index('profiles_search_any_idx')
      .on(t.siteId, t.hasPhoto.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.isInvisible} = false`),
    // A member with a region opens search on their own region: without this it was a bitmap scan and a sort.
    index('profiles_search_region_idx')
      .on(t.siteId, t.country, t.region, t.hasPhoto.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.isInvisible} = false`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sessions_token_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const complaints = pgTable(
  'complaints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    reference: text('reference').notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    url: text('url').notNull().default(''),
    language: text('language').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('complaints_reference_idx').on(t.reference), index('complaints_site_idx').on(t.siteId, t.createdAt)],
);

/** Page bounces (spec §9 `lb`): counted per site, landing path and day; nothing that identifies a visitor. */
export const pageBounces = pgTable(
  'page_bounces',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    day: date('day', { mode: 'string' }).notNull(),
    path: text('path').notNull(),
    bounces: integer('bounces').notNull().default(0),
    totalVisibleMs: bigint('total_visible_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('page_bounces_key_idx').on(t.siteId, t.day, t.path)],
);

/** Fixed-window counters for limits that must hold across server processes (when Redis is not configured). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** One-time links sent by email. Only a hash of the token is stored; `usedAt` makes them single-use. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_idx').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.kind),
    check('account_tokens_kind_check', sql`${t.kind} in ('activation', 'reset', 'mail_change', 'reactivation')`),
  ],
);

/** Every change of a member's credits; written in the same transaction as the balance. Kept after a purge. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_ledger_idempotency_idx').on(t.idempotencyKey), index('credit_ledger_user_idx').on(t.userId, t.createdAt)],
);

/** Every email, sent or waiting: the mail log, the retry queue, and the dev mailbox when no SMTP is set. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id').references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_status_idx').on(t.status, t.createdAt), index('outbox_emails_to_idx').on(t.toAddress)],
);

/**
 * Durable background work (apps/server/src/lib/jobs.ts), written in the same transaction as the change that causes
 * it. 'queued' waits for `run_at`; 'running' is leased to one worker until `locked_until` (a worker that dies
 * leaves it to be taken again after that); 'dead' is out of attempts and kept for an operator. A job that
 * succeeds is deleted. `locked_by` is the claim's own token, so only the worker holding the lease can finish it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due_idx').on(t.status, t.runAt), check('jobs_status_check', sql`${t.status} in ('queued', 'running', 'dead')`)],
);

/** Recurring jobs: one row each; whichever worker moves `next_run_at` on first enqueues that period's job. */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});

/** The message written while signing up from a profile; it becomes the first chat message when the account is activated. */
export const signupMessages = pgTable('signup_messages', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  toProfileId: bigint('to_profile_id', { mode: 'number' })
    .notNull()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Discount codes of spec §3 (the payments feature redeems them). */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    code: text('code').notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    country: text('country'),
    valuePercentage: integer('value_percentage').notNull(),
    currency: text('currency'),
    minimumOrderValue: integer('minimum_order_value').notNull().default(0),
    status: text('status').notNull().default('active'),
    source: text('source').notNull(),
    /** The payment methods the code is valid for (spec §3 paymentmethods); empty: every method. */
    paymentMethods: jsonb('payment_methods').$type<string[]>().notNull().default([]),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discount_codes_code_idx').on(t.siteId, t.code),
    index('discount_codes_user_idx').on(t.userId),
    // 1–99 %: a code never makes a free order, which the payment provider would refuse (docs/decisions.md).
    check('discount_codes_value_percentage_check', sql`${t.valuePercentage} between 1 and 99`),
  ],
);

/** A member's photo. Files live under DATA_DIR/media/<owner>/<storageKey>/<variant>.webp, never public. */
export const photos = pgTable(
  'photos',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    status: text('status').notNull().default('active'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('photos_storage_key_idx').on(t.storageKey),
    index('photos_profile_idx').on(t.profileId, t.createdAt),
    check('photos_status_check', sql`${t.status} in ('active', 'pending', 'rejected')`),
  ],
);

/** Blocks between profiles (spec §4): the blocked one sees only 'You are blocked by {name}'. */
export const blocks = pgTable(
  'blocks',
  {
    blockerProfileId: bigint('blocker_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    blockedProfileId: bigint('blocked_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerProfileId, t.blockedProfileId] }), index('blocks_blocked_idx').on(t.blockedProfileId)],
);

/** Likes between profiles (spec §4, §7). `isNew` is the receiver's like_new flag, cleared when they open the liker. */
export const likes = pgTable(
  'likes',
  {
    likerProfileId: bigint('liker_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    likedProfileId: bigint('liked_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    isNew: boolean('is_new').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.likerProfileId, t.likedProfileId] }),
    index('likes_liked_idx').on(t.likedProfileId, t.createdAt),
    check('likes_source_check', sql`${t.source} in ('search', 'profile', 'swipe', 'match_finder', 'auto')`),
  ],
);

/** Profiles a member passed in the swipe game or the match-finder, so they are not suggested again. */
export const skips = pgTable(
  'skips',
  {
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    skippedProfileId: bigint('skipped_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.skippedProfileId] })],
);

/**
 * The likes the swipe game granted a member on a day (UTC), spec §9: 4 a day. A grant is counted when the like is
 * written and stays counted when the like is taken back, so liking and withdrawing cannot beat the limit.
 */
export const swipeDays = pgTable(
  'swipe_days',
  {
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    likesGranted: integer('likes_granted').notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.day] }), check('swipe_days_likes_check', sql`${t.likesGranted} > 0`)],
);

/**
 * A chat between two profiles of one site (spec §3 chat state, §4): `profileLowId` is the lower profile id, so a
 * pair has one conversation. Per side: the last sequence it has read, its unread count, and `clearedSeq` (it
 * removed the chat: the messages up to there are gone for that side only; a later message brings the chat back).
 * `lastSeq` is the sequence of the last message; a send takes the next one under this row's lock, so the commit
 * order is the sequence order.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    profileLowId: bigint('profile_low_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    profileHighId: bigint('profile_high_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** Who sent the first message: a free member may start two conversations (spec §5). */
    startedByProfileId: bigint('started_by_profile_id', { mode: 'number' }).notNull(),
    lastSeq: integer('last_seq').notNull().default(0),
    lowReadSeq: integer('low_read_seq').notNull().default(0),
    highReadSeq: integer('high_read_seq').notNull().default(0),
    lowUnread: integer('low_unread').notNull().default(0),
    highUnread: integer('high_unread').notNull().default(0),
    lowClearedSeq: integer('low_cleared_seq').notNull().default(0),
    highClearedSeq: integer('high_cleared_seq').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_pair_idx').on(t.profileLowId, t.profileHighId),
    index('conversations_high_idx').on(t.profileHighId, t.updatedAt),
    index('conversations_low_idx').on(t.profileLowId, t.updatedAt),
    index('conversations_started_by_idx').on(t.startedByProfileId),
    check('conversations_pair_check', sql`${t.profileLowId} < ${t.profileHighId}`),
  ],
);

/**
 * A chat message. `seq` numbers the messages of a conversation 1, 2, 3… without gaps; `clientId` is the sender's
 * own id for the send, so a retried send is stored (and charged) once. `price` is what the sender paid in credits.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    senderProfileId: bigint('sender_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('text'),
    body: text('body').notNull(),
    clientId: text('client_id').notNull(),
    price: integer('price').notNull().default(0),
    status: text('status').notNull().default('sent'),
    /** A gift message's gift (an id of GIFTS in the contracts); null for any other kind. */
    gift: text('gift'),
    /** A photo message's files (under the sender's media, as profile photos) and size; null for any other kind. */
    photoKey: text('photo_key'),
    photoWidth: integer('photo_width'),
    photoHeight: integer('photo_height'),
    /** When the recipient chose to see the photo unblurred (remembered); null until then. */
    photoRevealedAt: timestamp('photo_revealed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_conversation_seq_idx').on(t.conversationId, t.seq),
    uniqueIndex('messages_sender_client_idx').on(t.senderProfileId, t.clientId),
    check('messages_kind_check', sql`${t.kind} in ('text', 'gift', 'photo')`),
    check('messages_status_check', sql`${t.status} in ('sent', 'rejected')`),
    check('messages_price_check', sql`${t.price} >= 0`),
    check('messages_gift_check', sql`(${t.kind} = 'gift') = (${t.gift} is not null)`),
    check('messages_photo_check', sql`(${t.kind} = 'photo') = (${t.photoKey} is not null)`),
  ],
);

/** Credit packages per site and payment country (issue 17): prices are integers in minor units of `currency`. */
export const creditPackages = pgTable(
  'credit_packages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    /** The payment country (ISO 3166-1 alpha-2) this package is sold in. */
    country: text('country').notNull(),
    currency: text('currency').notNull(),
    credits: integer('credits').notNull(),
    priceMinor: integer('price_minor').notNull(),
    bestValue: boolean('best_value').notNull().default(false),
    position: smallint('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_packages_site_country_idx').on(t.siteId, t.country, t.position),
    check('credit_packages_credits_check', sql`${t.credits} > 0`),
    check('credit_packages_price_check', sql`${t.priceMinor} > 0`),
  ],
);

/**
 * The payment methods a site offers in a payment country (our names, spec §9's list), in order, with the
 * transaction fee each adds to the price (minor units of the country's currency). What the provider really offers
 * for an amount filters this list when it is shown.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    country: text('country').notNull(),
    method: text('method').notNull(),
    feeMinor: integer('fee_minor').notNull().default(0),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.country, t.method] }), check('payment_methods_fee_check', sql`${t.feeMinor} >= 0`)],
);

/** The provider's customer of a member (first and recurring payments, mandates). */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * A member's order of a credit package. Stored before the provider is called; `status` follows what the provider
 * says (webhooks carry only the payment id, so the payment is fetched). `creditedAt` is set in the transaction that
 * writes the purchase's ledger row (key `pay:{id}`), so credits go in once. Amounts in minor units of `currency`:
 * `amountMinor` = `listPriceMinor` - `discountMinor` + `feeMinor`.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    packageId: integer('package_id')
      .notNull()
      .references(() => creditPackages.id),
    country: text('country').notNull(),
    credits: integer('credits').notNull(),
    currency: text('currency').notNull(),
    listPriceMinor: integer('list_price_minor').notNull(),
    discountMinor: integer('discount_minor').notNull().default(0),
    feeMinor: integer('fee_minor').notNull().default(0),
    amountMinor: integer('amount_minor').notNull(),
    discountCodeId: bigint('discount_code_id', { mode: 'number' }).references(() => discountCodes.id, { onDelete: 'set null' }),
    /** Our method name (spec §9), e.g. 'visa', 'ideal', 'directdebit'. */
    method: text('method').notNull(),
    /** 'sandbox' or 'mollie'. */
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    /** 'oneoff', 'first' (sets up a mandate) or 'recurring' (paid with one, no checkout). */
    sequenceType: text('sequence_type').notNull().default('oneoff'),
    mandateId: text('mandate_id'),
    /** created → open / pending → paid | failed | canceled | expired; paid → charged_back. */
    status: text('status').notNull().default('created'),
    checkoutUrl: text('checkout_url'),
    /** The client's id for this attempt: a retried start answers the same order. */
    requestKey: text('request_key'),
    repeatOf: bigint('repeat_of', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    chargedBackAt: timestamp('charged_back_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_orders_provider_payment_idx').on(t.provider, t.providerPaymentId),
    uniqueIndex('payment_orders_request_idx').on(t.userId, t.requestKey),
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    check('payment_orders_amount_check', sql`${t.amountMinor} >= 0 and ${t.listPriceMinor} > 0 and ${t.credits} > 0`),
    check(
      'payment_orders_status_check',
      sql`${t.status} in ('created', 'open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired', 'charged_back')`,
    ),
    check('payment_orders_sequence_check', sql`${t.sequenceType} in ('oneoff', 'first', 'recurring')`),
  ],
);

/** Every (order, status) a webhook or a poll brought, once: the log that makes processing idempotent. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('payment_events_order_status_idx').on(t.orderId, t.status)],
);

/**
 * A discount code taken by an order: 'reserved' while the order is open, 'used' once paid (a code is used once per
 * member), removed when the payment fails.
 */
export const discountRedemptions = pgTable(
  'discount_redemptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    discountCodeId: bigint('discount_code_id', { mode: 'number' })
      .notNull()
      .references(() => discountCodes.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('reserved'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discount_redemptions_order_idx').on(t.orderId),
    uniqueIndex('discount_redemptions_used_idx').on(t.discountCodeId, t.userId).where(sql`${t.status} = 'used'`),
    check('discount_redemptions_status_check', sql`${t.status} in ('reserved', 'used')`),
  ],
);

/** A member's direct-debit mandate (spec §3 direct-debit form); the IBAN itself stays with the provider. */
export const directDebitMandates = pgTable(
  'direct_debit_mandates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountHolder: text('account_holder').notNull(),
    /** The last four characters of the IBAN, to show which account it is. */
    ibanLast4: text('iban_last4').notNull(),
    street: text('street').notNull(),
    houseNumber: text('house_number').notNull(),
    zip: text('zip').notNull(),
    city: text('city').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    provider: text('provider').notNull(),
    providerMandateId: text('provider_mandate_id').notNull(),
    status: text('status').notNull().default('valid'),
    createdAt: createdAt(),
  },
  (t) => [index('direct_debit_mandates_user_idx').on(t.userId)],
);

/** A code sent by SMS to confirm something (the direct-debit form); only its hash is kept. */
export const smsVerifications = pgTable(
  'sms_verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    /** What the code confirms, until it is used or expires (then removed). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sms_verifications_user_idx').on(t.userId, t.createdAt)],
);

/** Every SMS, sent or waiting: the SMS log, the retry queue and the dev SMS page when no SMS provider is set. */
export const outboxSms = pgTable(
  'outbox_sms',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id').references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toNumber: text('to_number').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_sms_to_idx').on(t.toNumber, t.createdAt)],
);

/**
 * The sandbox provider's own state (it speaks Mollie's API at /sandbox/mollie/v2): payments, customers and
 * mandates, as a test-mode Mollie account would hold them. Ids look like Mollie's (tr_…, cst_…, mdt_…).
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    method: text('method'),
    status: text('status').notNull().default('open'),
    sequenceType: text('sequence_type').notNull().default('oneoff'),
    redirectUrl: text('redirect_url'),
    cancelUrl: text('cancel_url'),
    webhookUrl: text('webhook_url'),
    locale: text('locale'),
    billingCountry: text('billing_country'),
    customerId: text('customer_id'),
    mandateId: text('mandate_id'),
    metadata: jsonb('metadata').$type<unknown>(),
    amountRefundedMinor: integer('amount_refunded_minor').notNull().default(0),
    amountChargedBackMinor: integer('amount_charged_back_minor').notNull().default(0),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sandbox_payments_idempotency_idx').on(t.idempotencyKey)],
);

export const sandboxCustomers = pgTable('sandbox_customers', {
  id: text('id').primaryKey(),
  name: text('name'),
  email: text('email'),
  metadata: jsonb('metadata').$type<unknown>(),
  createdAt: createdAt(),
});

export const sandboxMandates = pgTable('sandbox_mandates', {
  id: text('id').primaryKey(),
  customerId: text('customer_id')
    .notNull()
    .references(() => sandboxCustomers.id, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  status: text('status').notNull().default('valid'),
  consumerName: text('consumer_name'),
  consumerAccount: text('consumer_account'),
  createdAt: createdAt(),
});
