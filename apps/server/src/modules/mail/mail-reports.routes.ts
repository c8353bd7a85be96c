import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/errors';
import { endpoint } from '../../plugins/endpoints';
import type { Site } from '../sites/sites.service';
import { handleMailReport, MAIL_REPORT_BODY_LIMIT } from './mail-reports.service';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
function hasToken(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * Whether the body has the shape of a message (RFC 5322): it starts with a header field, after the `From `
 * line an mbox delivery (a Postfix pipe with flag F) puts first.
 */
function looksLikeMessage(body: Buffer): boolean {
  const head = body
    .subarray(0, 2048)
    .toString('latin1')
    .replace(/^From [^\n]*\n/, '');
  return /^[\x21-\x39\x3b-\x7e]+[ \t]*:/.test(head);
}

/**
 * POST /api/mail-reports: where the bounce mailbox's mail comes in (docs/operations.md). Not a browser's call:
 * no session, no client header (plugins/client-header.ts), any host; the Bearer token MAIL_REPORTS_TOKEN is
 * its only key, and without one configured the endpoint is not there (404). Whatever message it gets is
 * answered 200 once read, so the MTA does not retry a report we cannot use.
 */
export const mailReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = app.ctx;
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    ['message/rfc822', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: MAIL_REPORT_BODY_LIMIT },
    (_request, body, done) => {
      done(null, body);
    },
  );
  app.route({
    ...endpoint('POST /api/mail-reports'),
    config: { anyHost: true },
    bodyLimit: MAIL_REPORT_BODY_LIMIT,
    handler: async (request) => {
      const token = ctx.config.mail?.reportsToken ?? null;
      if (!token) throw new HttpError(404, 'not_found', 'Not found');
      if (!hasToken(request.headers.authorization, token)) {
        throw new HttpError(401, 'unauthorized', 'Mail reports need the Bearer token MAIL_REPORTS_TOKEN');
      }
      const body = request.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0 || !looksLikeMessage(body)) {
        throw new HttpError(400, 'invalid_message', 'The body must be a raw message (RFC 5322): header fields first');
      }
      const site = (request.site as Site | undefined) ?? null;
      const outcome = await handleMailReport(ctx, body, site?.id ?? null);
      request.log.info({ outcome }, 'mail report');
      return { outcome };
    },
  });
};
