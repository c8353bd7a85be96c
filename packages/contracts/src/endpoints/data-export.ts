import { dataExportDownloadQuerySchema, dataExportLatestQuerySchema, dataExportStatusSchema } from '../data-export';
import { type EndpointTable, unchecked } from './endpoint';

/** A member's copy of their data (GDPR art. 15 and 20): asking for it, its state, and the mailed download link. */
export const dataExportEndpoints = {
  'GET /api/data-export.php': {
    tag: 'data-export',
    summary: 'The state of my latest copy of my data: none, being prepared, ready until a date, expired or failed',
    response: dataExportStatusSchema,
  },
  'POST /api/data-export.php': {
    tag: 'data-export',
    summary: 'Ask for a copy of my data (one at a time, once a day); a mail brings the link when it is ready',
    response: dataExportStatusSchema,
  },
  'GET /api/data-export.php?download=1': {
    tag: 'data-export',
    summary: 'The mailed link: my data as a ZIP, to me alone while logged in, until it expires (410 after); else 404',
    query: dataExportDownloadQuerySchema,
    response: unchecked('binary', 'application/zip'),
  },
  'GET /api/data-export.php?download=latest': {
    tag: 'data-export',
    summary: "The settings page's link: my latest data export as a ZIP while it is ready (410 once expired, 404 when there is none)",
    query: dataExportLatestQuerySchema,
    response: unchecked('binary', 'application/zip'),
  },
} satisfies EndpointTable;
