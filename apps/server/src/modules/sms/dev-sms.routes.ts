import { devSmsQuerySchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { escapeHtml, htmlPage, sendHtmlPage } from '../../lib/html-page';
import { dbOf } from '../../lib/transaction';
import { endpoint } from '../../plugins/endpoints';
import { listSms } from './sms.repository';

const LIST_SIZE = 100;

/** A number as asked for: `+` in a query string arrives as a space, and may be left out. */
function numberOf(value: string | undefined): string | null {
  const digits = (value ?? '').replace(/[\s()-]/g, '');
  if (!digits) return null;
  return digits.startsWith('+') ? digits : `+${digits}`;
}

const STATUS_COLOURS: Record<string, string> = { sent: '#1a7f37', dev: '#0969da', failed: '#c8213a', pending: '#9a6700', dropped: '#555' };

/**
 * The dev SMS page: every SMS of the outbox, for developers and tests, on a server without an SMS provider (like
 * the dev mailbox). Registered only outside production (app.ts): it shows other members' codes.
 */
export const devSmsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/sms', { schema: { hide: true, querystring: devSmsQuerySchema } }, async (request, reply) => {
    const to = numberOf(request.query.to);
    const messages = await listSms(dbOf(app.ctx), to, LIST_SIZE);
    const rows = messages
      .map(
        (m) => `<tr style="border-top:1px solid #ddd;vertical-align:top;">
<td style="padding:6px 8px;white-space:nowrap;">${escapeHtml(m.createdAt.toISOString().replace('T', ' ').slice(0, 19))}</td>
<td style="padding:6px 8px;">${escapeHtml(m.siteName ?? '')}</td>
<td style="padding:6px 8px;white-space:nowrap;"><a href="/dev/sms?to=${encodeURIComponent(m.toNumber)}" style="color:#222;">${escapeHtml(m.toNumber)}</a></td>
<td style="padding:6px 8px;" data-testid="sms-text">${escapeHtml(m.text)}</td>
<td style="padding:6px 8px;color:${STATUS_COLOURS[m.status] ?? '#222'};">${escapeHtml(m.status)}</td>
<td style="padding:6px 8px;color:#555;">${escapeHtml(m.kind)}</td>
</tr>`,
      )
      .join('\n');
    const body = `<h1 style="margin:0 0 8px 0;font-size:22px;color:#c8213a;">Dev SMS</h1>
<p style="margin:0 0 16px 0;color:#555;">The newest ${LIST_SIZE} SMS in the outbox${to ? ` to <strong>${escapeHtml(to)}</strong> (<a href="/dev/sms">show all</a>)` : ''}. Not available in production.</p>
<form method="get" action="/dev/sms" style="margin:0 0 16px 0;">
<label>Number <input type="tel" name="to" value="${escapeHtml(to ?? '')}" style="padding:4px;"></label>
<button type="submit" style="padding:4px 10px;">Filter</button>
</form>
${
  messages.length
    ? `<table style="border-collapse:collapse;width:100%;">
<thead><tr style="text-align:left;"><th style="padding:6px 8px;">Time (UTC)</th><th style="padding:6px 8px;">Site</th><th style="padding:6px 8px;">To</th><th style="padding:6px 8px;">Text</th><th style="padding:6px 8px;">Status</th><th style="padding:6px 8px;">Kind</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No SMS yet.</p>'
}`;
    return sendHtmlPage(reply, 200, htmlPage('Dev SMS', body));
  });

  app.route({
    ...endpoint('GET /api/dev/sms.php'),
    config: { floodGuard: false },
    handler: async (request, reply) => {
      const messages = await listSms(dbOf(app.ctx), numberOf(request.query.to), LIST_SIZE);
      reply.header('cache-control', 'no-store');
      return {
        messages: messages.map((m) => ({
          id: m.id,
          kind: m.kind,
          to: m.toNumber,
          text: m.text,
          status: m.status,
          created_at: m.createdAt.toISOString(),
        })),
      };
    },
  });
};
