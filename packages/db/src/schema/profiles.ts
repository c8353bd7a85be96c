/**
 * Profiles and what members do with them: photos, blocks, likes, skips and the swipe game's daily grants.
 */
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
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { sites } from './sites';

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

/** A member's photo. Its files are `media/<owner>/<storageKey>/<variant>.webp` in the media store (DATA_DIR or a bucket), never public. */
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
    // Business reports (modules/reports): active members per day.
    index('likes_created_idx').on(t.createdAt, t.likerProfileId),
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
