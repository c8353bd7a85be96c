import { z } from 'zod';
import { INTERESTS, NICHES, PAYMENT_METHODS } from './constants';
import { idSchema, textSchema } from './fields';
import { LOCALES, localeFromTag } from './locales';

/**
 * Sites, companies and prices in the operator console (admins only): every setting of spec §3 a site has, the
 * company behind it, its credit packages and payment methods per country, and the discount codes. Fields are
 * named as spec §3 names them.
 */

/** Catalogue keys (console namespace) of the errors the service finds beyond a field's own shape. */
export const SITE_ADMIN_ERRORS = {
  defaultCountry: 'console.sites.errors.defaultCountry',
  domainTaken: 'console.sites.errors.domainTaken',
  noCompany: 'console.sites.errors.noCompany',
  countryNotSold: 'console.sites.errors.countryNotSold',
  cardFee: 'console.sites.errors.cardFee',
  codeTaken: 'console.sites.errors.codeTaken',
} as const;

const countrySchema = () => z.string().regex(/^[A-Z]{2}$/, 'An ISO 3166-1 alpha-2 code in capitals');
const currencySchema = () => z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code in capitals');
const hostSchema = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(253)
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'A host name such as example.com');
const countSchema = (max: number) => z.number().int().min(0).max(max);
/** A text per locale: English always there (the fallback), the other locales optional. */
const localizedSchema = (max: number) =>
  z.partialRecord(z.enum(LOCALES), textSchema().trim().max(max)).refine((text) => Boolean(text.en?.length), {
    message: 'English is required',
    path: ['en'],
  });
const fieldNamesSchema = () => z.array(textSchema().trim().min(1).max(64)).max(64);

/** Every setting of a site the console edits (spec §3 site settings; the company's own fields are the company's). */
export const siteSettingsSchema = z.strictObject({
  name: textSchema().trim().min(1).max(80),
  domain: hostSchema(),
  hosts: z.array(hostSchema()).max(20),
  /** A language tag (`de-DE`, `en`) whose language is one of ours. */
  domain_language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'A language tag such as de-DE')
    .refine((tag) => localeFromTag(tag) !== null, 'A language the sites speak'),
  languages: z.array(z.enum(LOCALES)).min(1).max(LOCALES.length),
  countries: z.array(countrySchema()).min(1).max(60),
  default_country: countrySchema(),
  niche: z.union(NICHES.map((n) => z.literal(n))),
  company_id: idSchema(),
  index_title: localizedSchema(200),
  description: localizedSchema(500),
  visible_profile_fields: fieldNamesSchema(),
  visible_profile_notes: fieldNamesSchema(),
  search_fields: fieldNamesSchema(),
  interests: z.array(z.enum(INTERESTS)).max(INTERESTS.length),
  cdn_prefix: z.union([z.literal(''), z.url().max(300)]),
  message_credits: countSchema(10_000),
  signup_credits: countSchema(10_000),
  photo_credits: countSchema(10_000),
  gift_credits: countSchema(10_000),
  message_length: z.number().int().min(1).max(10_000),
  minimum_message_costs: z.record(countrySchema(), z.strictObject({ costs: countSchema(1_000_000), currency: currencySchema() })),
  support_email: z.email().max(254),
  support_phone: textSchema().trim().min(3).max(40),
  delete_discount: z.number().int().min(0).max(99),
  enable_site_entry_popup: z.enum(['yes', 'no']),
  enable_us_footer: z.boolean(),
  fictional_warning: localizedSchema(1000),
  fictional_singular: localizedSchema(80),
  fictional_plural: localizedSchema(80),
  fictional_icon: textSchema().trim().min(1).max(80),
  refund_days: z.number().int().min(0).max(365),
  signups: textSchema().trim().min(1).max(40),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  member_resell: z.boolean(),
  moderate_photos: z.boolean(),
});
export type SiteSettingsInput = z.infer<typeof siteSettingsSchema>;
/** A change: any of the settings, the others kept. */
export const siteSettingsChangeSchema = siteSettingsSchema.partial();

const localizedView = () => z.record(z.string(), z.string());
/** A site as the console shows it: its settings as stored (older rows may predate a rule), and its address. */
export const siteAdminSchema = z.object({
  id: z.number(),
  is_default: z.boolean(),
  company_name: z.string(),
  /** The site's own address, to open it in a new tab. */
  preview_url: z.string(),
  name: z.string(),
  domain: z.string(),
  hosts: z.array(z.string()),
  domain_language: z.string(),
  languages: z.array(z.string()),
  countries: z.array(z.string()),
  default_country: z.string(),
  niche: z.number(),
  company_id: z.number(),
  index_title: localizedView(),
  description: localizedView(),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  search_fields: z.array(z.string()),
  interests: z.array(z.string()),
  cdn_prefix: z.string(),
  message_credits: z.number(),
  signup_credits: z.number(),
  photo_credits: z.number(),
  gift_credits: z.number(),
  message_length: z.number(),
  minimum_message_costs: z.record(z.string(), z.object({ costs: z.number(), currency: z.string() })),
  support_email: z.string(),
  support_phone: z.string(),
  delete_discount: z.number(),
  enable_site_entry_popup: z.string(),
  enable_us_footer: z.boolean(),
  fictional_warning: localizedView(),
  fictional_singular: localizedView(),
  fictional_plural: localizedView(),
  fictional_icon: z.string(),
  refund_days: z.number(),
  signups: z.string(),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  member_resell: z.boolean(),
  moderate_photos: z.boolean(),
});
export type SiteAdminView = z.infer<typeof siteAdminSchema>;

export const siteListSchema = z.object({
  sites: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      domain: z.string(),
      niche: z.number(),
      company_id: z.number(),
      company_name: z.string(),
      countries: z.array(z.string()),
      preview_url: z.string(),
    }),
  ),
  companies: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type SiteListResponse = z.infer<typeof siteListSchema>;

export const siteParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });
/**
 * How the preview shows the site: in which language (one of the draft's, in the console), and as a first visit
 * (`first_visit=1`: with the entry warning, when the site has one) or as a visitor who answered it.
 */
export const sitePreviewQuerySchema = z.object({ lang: z.enum(LOCALES), first_visit: z.enum(['0', '1']).default('0') });
/**
 * POST /api/console/sites/:id/preview: the visitor's landing page as the server renders it with the draft's
 * settings over the stored ones (nothing is stored), a whole document without scripts for a sandboxed frame.
 */
export const sitePreviewSchema = z.object({ html: z.string() });
export const sitePackageParamsSchema = z.object({
  id: z.coerce.number().pipe(idSchema()),
  packageId: z.coerce.number().pipe(idSchema()),
});

/** The company behind sites: its legal pages' and receipts' data. */
export const companySettingsSchema = z.strictObject({
  name: textSchema().trim().min(1).max(120),
  address: textSchema().trim().min(1).max(200),
  city: textSchema().trim().min(1).max(100),
  country: countrySchema(),
  kvk: textSchema().trim().max(40),
  vat_numbers: z.array(textSchema().trim().min(4).max(20)).max(20),
  tradenames: z.array(textSchema().trim().min(1).max(120)).max(20),
  added: z.iso.date(),
});
export const companyAdminSchema = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  kvk: z.string(),
  vat_numbers: z.array(z.string()),
  tradenames: z.array(z.string()),
  added: z.string(),
  sites: z.array(z.string()),
});
export type CompanyAdminView = z.infer<typeof companyAdminSchema>;

/** A credit package: credits for a price (minor units of the currency) in one payment country. */
export const packageInputSchema = z.strictObject({
  country: countrySchema(),
  currency: currencySchema(),
  credits: z.number().int().min(1).max(1_000_000),
  price_minor: z.number().int().min(1).max(10_000_000),
  best_value: z.boolean().default(false),
  position: z.number().int().min(0).max(100).default(0),
  active: z.boolean().default(true),
});
export const packageAdminSchema = packageInputSchema.required().extend({ id: z.number() });
export type PackageAdminView = z.infer<typeof packageAdminSchema>;
export const packageListSchema = z.object({ packages: z.array(packageAdminSchema) });

const methodFeeSchema = z.strictObject({ method: z.enum(PAYMENT_METHODS), fee_minor: z.number().int().min(0).max(100_000) });
/** The methods a site offers in one country, in order, with their fees (the list replaces the country's). */
export const paymentMethodsInputSchema = z.strictObject({
  country: countrySchema(),
  methods: z.array(methodFeeSchema).max(PAYMENT_METHODS.length),
});
export const paymentMethodsAdminSchema = z.object({
  countries: z.array(
    z.object({
      country: z.string(),
      /** Card-based methods carry no fee in this country (EEA and the UK). */
      no_card_fees: z.boolean(),
      methods: z.array(z.object({ method: z.string(), fee_minor: z.number(), card: z.boolean() })),
    }),
  ),
});
export type PaymentMethodsAdminView = z.infer<typeof paymentMethodsAdminSchema>;

export const DISCOUNT_CODE_STATUSES = ['active', 'inactive', 'expired'] as const;
/** Spec §3 discount code: every field (validity is the expiry; `expired` follows from it). */
const discountCodeFields = {
  code: textSchema()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits and dashes only'),
  user_id: idSchema().nullable(),
  country: countrySchema().nullable(),
  value_percentage: z.number().int().min(1).max(99),
  currency: currencySchema().nullable(),
  minimum_order_value: z.number().int().min(0).max(10_000_000),
  status: z.enum(DISCOUNT_CODE_STATUSES),
  paymentmethods: z.array(z.enum(PAYMENT_METHODS)).max(PAYMENT_METHODS.length),
  expires: z.iso.datetime({ offset: true }),
};
export const discountCodeAdminInputSchema = z.strictObject({
  ...discountCodeFields,
  site_id: idSchema(),
  user_id: discountCodeFields.user_id.default(null),
  country: discountCodeFields.country.default(null),
  currency: discountCodeFields.currency.default(null),
  minimum_order_value: discountCodeFields.minimum_order_value.default(0),
  status: discountCodeFields.status.default('active'),
  paymentmethods: discountCodeFields.paymentmethods.default([]),
});
/** A change: any of the fields, the others kept (a code stays on its site). */
export const discountCodeAdminChangeSchema = z.strictObject(discountCodeFields).partial();
export const discountCodeAdminSchema = z.object({
  id: z.number(),
  code: z.string(),
  site_id: z.number(),
  user_id: z.number().nullable(),
  country: z.string().nullable(),
  value_percentage: z.number(),
  currency: z.string().nullable(),
  minimum_order_value: z.number(),
  status: z.string(),
  source: z.string(),
  paymentmethods: z.array(z.string()),
  expires: z.string(),
  expired: z.boolean(),
});
export type DiscountCodeAdminView = z.infer<typeof discountCodeAdminSchema>;
export const discountCodeListQuerySchema = z.object({
  site_id: z.coerce.number().pipe(idSchema()).optional(),
  /** Member codes (welcome, time bonus, delete discount) too; by default only the site's codes. */
  all: z.enum(['0', '1']).default('0'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const discountCodeListSchema = z.object({
  codes: z.array(discountCodeAdminSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export const discountCodeParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });
