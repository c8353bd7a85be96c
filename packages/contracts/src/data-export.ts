import { z } from 'zod';

/**
 * A member takes their data with them (GDPR art. 15 and 20): they ask for it on the settings page, a job prepares
 * a ZIP of JSON files and their photos, and a mail brings a link that works for DATA_EXPORT_DAYS days, for them
 * alone, logged in.
 */

export { DATA_EXPORT_DAYS, DATA_EXPORT_ERRORS } from './data-export-constants';

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

/** The settings page's download link: the member's latest export, by their session alone. */
export const dataExportLatestQuerySchema = z.object({ download: z.literal('latest') });

/** The download link of the mail: `download=1` and the link's token (opaque to the client). */
export const dataExportDownloadQuerySchema = z.object({
  download: z.literal('1'),
  token: z.string().regex(/^[\w-]{43}$/, 'invalid token'),
});
