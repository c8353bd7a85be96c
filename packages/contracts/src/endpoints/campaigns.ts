import {
  mailingInputSchema,
  mailingListQuerySchema,
  mailingListSchema,
  mailingParamsSchema,
  mailingPreviewInputSchema,
  mailingPreviewSchema,
  mailingSchema,
  mailingSendInputSchema,
  mailingTestInputSchema,
  mailingTestSchema,
} from '../campaigns';
import type { EndpointTable } from './endpoint';

/**
 * News and promotions from the console (admins write, test and send them; support may read them). Every action
 * is audited (docs/decisions.md, "News and promotions").
 */
export const consoleMailingEndpoints = {
  'GET /api/console/mailings': {
    tag: 'console',
    summary: 'Mailings, newest first, with how far their sending got',
    query: mailingListQuerySchema,
    response: mailingListSchema,
  },
  'POST /api/console/mailings': {
    tag: 'console',
    summary: 'Write a new mailing (a draft) for a site: its kind and a subject and text per locale',
    body: mailingInputSchema,
    response: mailingSchema,
    created: true,
  },
  'POST /api/console/mailings/preview': {
    tag: 'console',
    summary: 'The mail one locale’s subject and text make, in the site’s mail template; nothing is saved',
    body: mailingPreviewInputSchema,
    response: mailingPreviewSchema,
  },
  'GET /api/console/mailings/:id': {
    tag: 'console',
    summary: 'A mailing with its texts, how far its sending got, and how many members opted in now',
    params: mailingParamsSchema,
    response: mailingSchema,
  },
  'PUT /api/console/mailings/:id': {
    tag: 'console',
    summary: 'Change a draft (its site, kind and texts)',
    params: mailingParamsSchema,
    body: mailingInputSchema,
    response: mailingSchema,
  },
  'POST /api/console/mailings/:id/test': {
    tag: 'console',
    summary: 'Send one locale’s mail to the staff member’s own address, marked as a test',
    params: mailingParamsSchema,
    body: mailingTestInputSchema,
    response: mailingTestSchema,
  },
  'POST /api/console/mailings/:id/send': {
    tag: 'console',
    summary: 'Send a draft now or from a moment on; members are mailed in batches by a job',
    params: mailingParamsSchema,
    body: mailingSendInputSchema,
    response: mailingSchema,
  },
  'POST /api/console/mailings/:id/cancel': {
    tag: 'console',
    summary: 'Cancel a draft, a scheduled mailing or one being sent: the mails not yet sent are not sent',
    params: mailingParamsSchema,
    response: mailingSchema,
  },
} satisfies EndpointTable;
