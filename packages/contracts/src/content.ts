import { z } from 'zod';
import { PAYMENT_METHODS } from './constants';
import { textSchema } from './fields';
import { regionSchema } from './settings';

export const interestsResponseSchema = z.object({ interests: z.array(z.string()) });

export const regionsQuerySchema = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Use a two-letter country code')
    .transform((v) => v.toUpperCase())
    .optional(),
});
export const regionsResponseSchema = z.object({
  regions: z.record(z.string(), z.array(regionSchema)),
});
export type RegionsResponse = z.infer<typeof regionsResponseSchema>;

export const companyInfoSchema = z.object({
  company_id: z.number().int(),
  name: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  kvk: z.string(),
  vat_numbers: z.array(z.string()),
  tradenames: z.array(z.string()),
  added: z.string(),
  support_email: z.string(),
  support_phone: z.string(),
  support_phone_dial: z.string(),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;

export const paymentLogoParamsSchema = z.object({ name: z.enum(PAYMENT_METHODS) });

export const healthResponseSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), uptime_seconds: z.number() });

export const pageHiddenBodySchema = z
  .object({
    lb: z.union([textSchema().max(100), z.boolean(), z.number()]).optional(),
    path: textSchema().max(300).optional(),
    visible_ms: z.number().int().min(0).max(86_400_000).optional(),
  })
  .strict()
  .default({});
export const okResponseSchema = z.object({ ok: z.literal(true) });

/**
 * The installed app's icons (spec §2 installed-app mode), PNG: `any` icons (the logo's rounded square) at 192 and
 * 512 px, a maskable one (full bleed, the heart inside the safe zone) and Apple's home-screen icon.
 */
export const APP_ICONS = ['192', '512', 'maskable-512', 'apple-touch-180'] as const;
export type AppIcon = (typeof APP_ICONS)[number];
export const appIconParamsSchema = z.object({ name: z.enum(APP_ICONS) });

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/);

/** The web app manifest of the request's site (W3C Web App Manifest), answered as application/manifest+json. */
export const appManifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string(),
  description: z.string(),
  lang: z.string(),
  dir: z.literal('ltr'),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  theme_color: hexColor,
  background_color: hexColor,
  categories: z.array(z.string()),
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.literal('image/png'), purpose: z.enum(['any', 'maskable']) })),
});
export type AppManifest = z.infer<typeof appManifestSchema>;
