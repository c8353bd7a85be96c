import { z } from 'zod';
import { textSchema } from './fields';
import { LOCALES } from './locales';

const localeSchema = z.enum(LOCALES);

export const regionSchema = z.object({ code: z.string(), name: z.string() });

export const minimumMessageCostSchema = z.object({ costs: z.number().int(), currency: z.string().length(3) });

/** The settings object of spec §3, as GET /api/settings.php returns it. */
export const settingsSchema = z.object({
  site_id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  domain_language: z.string(),
  languages: z.array(localeSchema),
  index_title: z.string(),
  description: z.string(),
  niche: z.number().int().min(1).max(7),
  lander_slug: z.string(),
  company_id: z.number().int(),
  countries: z.array(z.string()),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  geoip_country: z.string().nullable(),
  geoip_selected_country: z.string(),
  region_data: z.array(regionSchema),
  cdn_prefix: z.string(),
  message_credits: z.number().int(),
  signup_credits: z.number().int(),
  photo_credits: z.number().int(),
  gift_credits: z.number().int(),
  message_length: z.number().int(),
  minimum_message_costs: z.record(z.string(), minimumMessageCostSchema),
  support_email: z.string(),
  support_phone: z.string(),
  company_name: z.string(),
  company_address: z.string(),
  company_kvk: z.string(),
  company_city: z.string(),
  company_country: z.string(),
  company_tradenames: z.array(z.string()),
  company_vat_numbers: z.array(z.string()),
  company_added: z.string(),
  terms_date: z.string(),
  delete_discount: z.number().int(),
  enable_site_entry_popup: z.enum(['yes', 'no']),
  enable_us_footer: z.boolean(),
  push_public_key: z.string().nullable(),
  search_fields: z.array(z.string()),
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  fictional_icon: z.string(),
  refund_days: z.number().int(),
  signups: z.string(),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  interests: z.array(z.string()),
  member_resell: z.boolean(),
  is_trafficsource: z.boolean(),
  is_production: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsQuerySchema = z
  .object({
    forced_host: textSchema().max(253).optional(),
    lang: localeSchema.optional(),
    // A link's values are whatever someone typed or pasted: one we cannot take (a control character) is left
    // out, and the page still comes.
    lb: textSchema().optional().catch(undefined),
  })
  // Any other key may be a traffic-source value (network, ref, sub1…), which is kept and later stored.
  .catchall(textSchema().or(z.array(textSchema())).optional().catch(undefined));
