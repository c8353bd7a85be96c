import type { FastifyReply } from 'fastify';

/**
 * The server's own HTML pages for developers and tests (the dev mailbox, the dev SMS page, the payment sandbox's
 * checkout and dashboard): one shell, with an inline style sheet and no script (the pages' CSP allows inline
 * styles, no inline scripts), kept out of search engines. Every text that came from a request or the database goes
 * through `escapeHtml`.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The plain look of the dev mailbox and the dev SMS page. */
const DEV_STYLE = 'body{margin:0;padding:24px;font-family:system-ui,Arial,sans-serif;font-size:14px;color:#222;background:#fff}';

/** A whole page: `body` is HTML already escaped; `style` replaces the plain developer look. */
export function htmlPage(title: string, body: string, options: { style?: string } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${options.style ?? DEV_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Sends a page that is never cached (it shows the outbox or a payment as it is now). */
export function sendHtmlPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
