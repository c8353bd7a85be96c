import { z } from 'zod';
import type { EndpointTable } from './endpoint';

/** What a delivery or feedback report did (docs/operations.md, "Bounces and spam reports"). */
const mailReportAnswerSchema = z.object({
  outcome: z.enum(['disabled', 'recorded', 'duplicate', 'ignored']),
});

/** Calls the mail system makes: the reports about mail we sent, posted by the MTA or the mail provider. */
export const mailEndpoints = {
  'POST /api/mail-reports': {
    tag: 'mail',
    summary:
      'A bounce (RFC 3464) or a spam report (ARF, RFC 5965) as a raw message, from the MTA or the mail provider with the Bearer token MAIL_REPORTS_TOKEN: 200 with what it did (ignored for a message that is no report or names no member), 400 for a body that is no message, 401 without the token, 404 where no token is configured',
    consumes: ['message/rfc822', 'text/plain'],
    response: mailReportAnswerSchema,
  },
} satisfies EndpointTable;
