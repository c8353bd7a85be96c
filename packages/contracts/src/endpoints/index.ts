import type { z } from 'zod';
import { accountEndpoints } from './accounts';
import { consoleMailingEndpoints } from './campaigns';
import { chatEndpoints } from './chat';
import { consoleStaffEndpoints } from './console';
import { dataExportEndpoints } from './data-export';
import { consoleInboxEndpoints } from './inbox';
import { mailEndpoints } from './mail';
import { memberEndpoints } from './members';
import { moderationEndpoints } from './moderation';
import { notificationEndpoints } from './notifications';
import { paymentEndpoints } from './payments';
import { consoleReportEndpoints } from './reports';
import { siteEndpoints } from './site';
import { siteAdminEndpoints } from './site-admin';
import { consoleSupportEndpoints } from './support';

export type { Endpoint, HttpMethod } from './endpoint';

/**
 * Every call of the API, `'METHOD /path'` → its schemas, written by area in this folder. The server's routes take
 * their method, path and schemas from here (apps/server/src/plugins/endpoints.ts: an /api route without its entry,
 * or with other schemas, stops the app from starting), and the web's `api('GET /api/settings.php', { query })`
 * takes its request and answer types from it. A new call starts here.
 */
export const endpoints = {
  ...siteEndpoints,
  ...accountEndpoints,
  ...memberEndpoints,
  ...chatEndpoints,
  ...paymentEndpoints,
  ...notificationEndpoints,
  ...dataExportEndpoints,
  ...mailEndpoints,
  ...consoleStaffEndpoints,
  ...consoleSupportEndpoints,
  ...moderationEndpoints,
  ...consoleInboxEndpoints,
  ...siteAdminEndpoints,
  ...consoleReportEndpoints,
  ...consoleMailingEndpoints,
};

export type Endpoints = typeof endpoints;
export type EndpointKey = keyof Endpoints;

/** The calls whose answer is JSON checked by a schema and whose body, if any, is JSON: what the web's `api()` calls. */
export type JsonEndpointKey = {
  [K in EndpointKey]: Endpoints[K] extends { response: z.ZodType; consumes?: undefined } ? K : never;
}[EndpointKey];

/** The JSON body a call takes (what is sent, before the schema's transforms), or undefined. */
export type EndpointBody<K extends EndpointKey> = Endpoints[K] extends { body: infer S extends z.ZodType } ? z.input<S> : undefined;

/** The query a call takes, as its schema reads it, or undefined. */
export type EndpointQuery<K extends EndpointKey> = Endpoints[K] extends { query: infer S extends z.ZodType } ? z.input<S> : undefined;

/** The answer of a call, as its response schema sends it. */
export type EndpointResponse<K extends EndpointKey> = Endpoints[K] extends { response: infer S extends z.ZodType } ? z.output<S> : never;
