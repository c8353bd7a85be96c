/**
 * Sites and the companies that operate them (spec §3 settings).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

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
