// A real SMTP server for the e2e run (smtp-server), plus a small HTTP view of what it received so the
// journeys can open the links in the mails: GET /messages?to=<address> → [{ to, subject, text, html }].
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.SMTP_SINK_PORT ?? 2525);
const HTTP_PORT = Number(process.env.SMTP_SINK_HTTP_PORT ?? 4174);
const messages = [];

/** A header's value as sent: after its name, its folded lines joined (RFC 5322 unfolding), or null. */
function headerValue(mail, key) {
  const line = mail.headerLines.find((h) => h.key === key)?.line;
  if (!line) return null;
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n/g, '')
    .trim();
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push({
          to,
          from: mail.from?.text ?? '',
          // The envelope sender: where a bounce of this mail would go (the per-recipient return path).
          returnPath: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: mail.html || '',
          // RFC 8058 one-click unsubscribe: the headers' values as the mail carried them (unfolded).
          listUnsubscribe: headerValue(mail, 'list-unsubscribe'),
          listUnsubscribePost: headerValue(mail, 'list-unsubscribe-post'),
          at: Date.now(),
        });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(SMTP_PORT, '127.0.0.1');

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(list.slice().reverse()));
}).listen(HTTP_PORT, '127.0.0.1');
