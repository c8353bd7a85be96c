import { complaintResponseSchema, complaintSchema } from '../complaints';
import {
  appIconParamsSchema,
  appManifestSchema,
  companyInfoSchema,
  healthResponseSchema,
  interestsResponseSchema,
  okResponseSchema,
  pageHiddenBodySchema,
  paymentLogoParamsSchema,
  regionsQuerySchema,
  regionsResponseSchema,
} from '../content';
import { devMailboxQuerySchema, devMailboxResponseSchema, devPremiumSchema, devSmsQuerySchema, devSmsResponseSchema } from '../dev';
import { settingsQuerySchema, settingsSchema } from '../settings';
import { type EndpointTable, unchecked } from './endpoint';

/** The site and its content, operations, and the development-only calls. */
export const siteEndpoints = {
  // The site and its content
  'GET /api/settings.php': {
    tag: 'site',
    summary: 'Settings of the site picked by the request host (spec §3)',
    query: settingsQuerySchema,
    response: settingsSchema,
  },
  'GET /api/interests.php': { tag: 'site', summary: 'Interests members can pick', response: interestsResponseSchema },
  'GET /api/regions.php': {
    tag: 'site',
    summary: "Regions of the site's countries, or of one country",
    query: regionsQuerySchema,
    response: regionsResponseSchema,
  },
  'GET /api/companyinfo.php': { tag: 'site', summary: 'The company behind the site', response: companyInfoSchema },
  'GET /api/assets/paymentmethod/:name.svg': {
    tag: 'site',
    summary: 'Payment method logo',
    params: paymentLogoParamsSchema,
    response: unchecked('binary', 'image/svg+xml'),
  },
  'GET /api/manifest.webmanifest': {
    tag: 'site',
    summary: "The installed app's web manifest for the request's site: its name, colours and icons",
    response: appManifestSchema,
  },
  'GET /api/assets/app-icon/:name.png': {
    tag: 'site',
    summary: "An icon of the installed app, drawn in the site's colours",
    params: appIconParamsSchema,
    response: unchecked('binary', 'image/png'),
  },
  'POST /api/complaints.php': {
    tag: 'support',
    summary: 'File a complaint with the site operator',
    body: complaintSchema,
    response: complaintResponseSchema,
  },
  'POST /api/page-hidden.php': {
    tag: 'telemetry',
    summary: 'Page became hidden (beacon); with lb it records a page bounce',
    body: pageHiddenBodySchema,
    response: okResponseSchema,
  },
  'GET /api/health.php': { tag: 'operations', summary: 'Liveness and database reachability', response: healthResponseSchema },

  // Development only
  'GET /api/dev/mailbox.php': {
    tag: 'development',
    summary: 'The latest outbox emails, to one address or to all',
    dev: true,
    hide: true,
    query: devMailboxQuerySchema,
    response: devMailboxResponseSchema,
  },
  'GET /api/dev/sms.php': {
    tag: 'development',
    summary: 'The latest outbox SMS, to one number or to all',
    dev: true,
    hide: true,
    query: devSmsQuerySchema,
    response: devSmsResponseSchema,
  },
  'POST /api/dev/premium.php': {
    tag: 'photos',
    summary: 'Development only: set or clear premium (paid_user) for the logged-in member',
    dev: true,
    body: devPremiumSchema,
    response: okResponseSchema,
  },
} satisfies EndpointTable;
