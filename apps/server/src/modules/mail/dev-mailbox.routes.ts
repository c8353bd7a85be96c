import { devMailboxQuerySchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml, htmlPage, sendHtmlPage } from '../../lib/html-page';
import { dbOf } from '../../lib/transaction';
import { endpoint } from '../../plugins/endpoints';
import { findOutboxEmail, findOutboxEmails, listOutbox } from './mail.repository';

const LIST_SIZE = 100;

const idParams = z.object({ id: z.string() });

/** What an email is shown under: only its own inline styles, no scripts, no remote content, not framed. */
const EMAIL_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function parseId(value: string): number | null {
  return /^[1-9]\d{0,14}$/.test(value) ? Number(value) : null;
}

const STATUS_COLOURS: Record<string, string> = {
  sent: '#1a7f37',
  dev: '#0969da',
  failed: '#c8213a',
  pending: '#9a6700',
  suppressed: '#6e7781',
};

/**
 * The dev mailbox: every outbox email, for developers and tests, on a server without SMTP. Registered only
 * outside production (app.ts), as it shows other members' mail, links and tokens included.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/mailbox', { schema: { hide: true, querystring: devMailboxQuerySchema } }, async (request, reply) => {
    const to = request.query.to || null;
    const emails = await listOutbox(dbOf(app.ctx), LIST_SIZE, to);
    const rows = emails
      .map(
        (e) => `<tr style="border-top:1px solid #ddd;">
<td style="padding:6px 8px;white-space:nowrap;">${escapeHtml(e.createdAt.toISOString().replace('T', ' ').slice(0, 19))}</td>
<td style="padding:6px 8px;">${escapeHtml(e.siteName ?? '')}</td>
<td style="padding:6px 8px;"><a href="/dev/mailbox?to=${encodeURIComponent(e.toAddress)}" style="color:#222;">${escapeHtml(e.toAddress)}</a></td>
<td style="padding:6px 8px;"><a href="/dev/mailbox/${e.id}" style="color:#c8213a;">${escapeHtml(e.subject)}</a></td>
<td style="padding:6px 8px;color:${STATUS_COLOURS[e.status] ?? '#222'};">${escapeHtml(e.status)}</td>
<td style="padding:6px 8px;color:#555;">${escapeHtml(e.kind)}</td>
</tr>`,
      )
      .join('\n');
    const body = `<h1 style="margin:0 0 8px 0;font-size:22px;color:#c8213a;">Dev mailbox</h1>
<p style="margin:0 0 16px 0;color:#555;">The newest ${LIST_SIZE} emails in the outbox${to ? ` to <strong>${escapeHtml(to)}</strong> (<a href="/dev/mailbox">show all</a>)` : ''}. Not available in production.</p>
<form method="get" action="/dev/mailbox" style="margin:0 0 16px 0;">
<label>Recipient <input type="email" name="to" value="${escapeHtml(to ?? '')}" style="padding:4px;"></label>
<button type="submit" style="padding:4px 10px;">Filter</button>
</form>
${
  emails.length
    ? `<table style="border-collapse:collapse;width:100%;">
<thead><tr style="text-align:left;"><th style="padding:6px 8px;">Time (UTC)</th><th style="padding:6px 8px;">Site</th><th style="padding:6px 8px;">To</th><th style="padding:6px 8px;">Subject</th><th style="padding:6px 8px;">Status</th><th style="padding:6px 8px;">Kind</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No emails yet.</p>'
}`;
    return sendHtmlPage(reply, 200, htmlPage('Dev mailbox', body));
  });

  app.get('/dev/mailbox/:id', { schema: { hide: true, params: idParams } }, async (request, reply) => {
    const id = parseId(request.params.id);
    const email = id === null ? null : await findOutboxEmail(dbOf(app.ctx), id);
    if (!email) {
      return sendHtmlPage(
        reply,
        404,
        htmlPage(
          'Email not found',
          '<h1 style="font-size:22px;">Email not found</h1><p><a href="/dev/mailbox">Back to the dev mailbox</a></p>',
        ),
      );
    }
    reply.header('content-security-policy', EMAIL_CSP);
    return sendHtmlPage(reply, 200, email.html);
  });

  app.route({
    ...endpoint('GET /api/dev/mailbox.php'),
    config: { floodGuard: false },
    handler: async (request, reply) => {
      const emails = await findOutboxEmails(dbOf(app.ctx), request.query.to || null, LIST_SIZE);
      reply.header('cache-control', 'no-store');
      return {
        emails: emails.map((e) => ({
          id: e.id,
          kind: e.kind,
          to: e.toAddress,
          subject: e.subject,
          text: e.text,
          html: e.html,
          created_at: e.createdAt.toISOString(),
          status: e.status,
        })),
      };
    },
  });
};
