/** A member's copy of their data (data-export.ts): the values the web app needs too, without zod. */

/** How long a prepared export can be downloaded. */
export const DATA_EXPORT_DAYS = 7;

/** Catalogue keys of the refusals of data-export.php. */
export const DATA_EXPORT_ERRORS = {
  pending: 'dataExport.errors.pending',
  ready: 'dataExport.errors.ready',
  tooSoon: 'dataExport.errors.tooSoon',
  expired: 'dataExport.errors.expired',
} as const;

/** Where the settings page downloads the member's latest export (by their session alone). */
export const DATA_EXPORT_LATEST_PATH = '/api/data-export.php?download=latest';
