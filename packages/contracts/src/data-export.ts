import { z } from 'zod';

/**
 * A member takes their data with them (GDPR art. 15 and 20): they ask for it on the settings page, a job prepares
 * a ZIP of JSON files and their photos, and a mail brings a link that works for DATA_EXPORT_DAYS days, for them
 * alone, logged in.
 */

/** How long a prepared export can be downloaded. */
export const DATA_EXPORT_DAYS = 7;

/** Catalogue keys of the refusals of POST data-export.php. */
export const DATA_EXPORT_ERRORS = {
  pending: 'dataExport.errors.pending',
  ready: 'dataExport.errors.ready',
  tooSoon: 'dataExport.errors.tooSoon',
  expired: 'dataExport.errors.expired',
} as const;

/**
 * The member's latest export: none asked for; being prepared; ready to download until `expires_at`; no longer
 * there (expired); or it could not be prepared (failed: they may ask again).
 */
export const dataExportStatusSchema = z.object({
  status: z.enum(['none', 'pending', 'ready', 'expired', 'failed']),
  requested_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime().nullable(),
});
export type DataExportStatus = z.infer<typeof dataExportStatusSchema>;

/** The download link of the mail: `download=1` and the link's token (opaque to the client). */
export const dataExportDownloadQuerySchema = z.object({
  download: z.literal('1'),
  token: z.string().regex(/^[\w-]{43}$/, 'invalid token'),
});
