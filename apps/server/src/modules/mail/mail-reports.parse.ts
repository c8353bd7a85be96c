import { createHash } from 'node:crypto';

/**
 * What a report about a mail we sent says: a bounce (a delivery status notification, RFC 3464) or a complaint
 * (a feedback report, ARF, RFC 5965). Read with mailparser; anything else is no report.
 */
export interface MailReport {
  kind: 'bounce' | 'fbl';
  /** A bounce: 'permanent' or 'temporary'; a complaint: its Feedback-Type ('abuse', 'not-spam', …). */
  status: string;
  /** The enhanced status code (`5.1.1`) or the feedback type, with the diagnostic, for the record. */
  detail: string;
  /** The recipients the report names (Final-Recipient, Original-Recipient, Original-Rcpt-To), lower-cased. */
  recipients: string[];
  /** The report's own id: its Message-ID, else a hash of it, so the same report is known when it comes again. */
  reportId: string;
  /** Every text of the report (headers, report fields, returned message) to look for our return paths in. */
  text: string;
}

/** Fields of a report part: `Name: value` lines (folded lines joined), in blocks separated by blank lines. */
function fieldBlocks(content: string): Map<string, string>[] {
  const blocks: Map<string, string>[] = [];
  for (const block of content.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/)) {
    const fields = new Map<string, string>();
    for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
      const match = /^([A-Za-z0-9-]+)\s*:\s*(.*)$/.exec(line);
      if (match && !fields.has(match[1].toLowerCase())) fields.set(match[1].toLowerCase(), match[2].trim());
    }
    if (fields.size > 0) blocks.push(fields);
  }
  return blocks;
}

/** The address of `rfc822; jo@example.net` or `<jo@example.net>`, lower-cased; null when there is none. */
function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const address = value
    .replace(/^\s*rfc822\s*;/i, '')
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim()
    .toLowerCase();
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? address : null;
}

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** A recipient block of a delivery status part as a bounce, or null for a delivered, relayed or expanded one. */
function bounceOf(fields: Map<string, string>): { status: 'permanent' | 'temporary'; code: string; diagnostic: string } | null {
  const action = (fields.get('action') ?? '').toLowerCase();
  if (action !== 'failed' && action !== 'delayed') return null;
  const code = /\b([245])\.\d{1,3}\.\d{1,3}\b/.exec(fields.get('status') ?? '')?.[0] ?? '';
  const diagnostic = fields.get('diagnostic-code') ?? '';
  // A failure without a usable status code is judged by its SMTP reply (4xx: temporary); else it is final.
  const klass = code[0] ?? /\b([45])\d\d\b/.exec(diagnostic)?.[1] ?? '5';
  const status = action === 'delayed' || klass === '4' ? 'temporary' : 'permanent';
  return { status, code, diagnostic };
}

/** Reads a raw message (RFC 822): the report it is, or null when it is none (a reply, spam, an unreadable bounce). */
export async function parseMailReport(raw: Buffer): Promise<MailReport | null> {
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw, {
    keepDeliveryStatus: true,
    skipHtmlToText: true,
    skipTextLinks: true,
    skipImageLinks: true,
    skipTextToHtml: true,
    maxHtmlLengthToParse: 0,
  });
  const parts = mail.attachments.map((part) => ({ type: part.contentType.toLowerCase(), content: part.content.toString('utf8') }));
  const text = [raw.toString('latin1'), ...parts.map((part) => part.content)].join('\n');
  const reportId = clip(
    (mail.messageId ?? '').replace(/[^\x21-\x7e]/g, '') || `sha256:${createHash('sha256').update(raw).digest('hex')}`,
    200,
  );

  const dsn = parts.find((part) => part.type === 'message/delivery-status' || part.type === 'message/global-delivery-status');
  if (dsn) {
    // The first block is about the message; each further one about a recipient. The worst one counts.
    const recipientBlocks = fieldBlocks(dsn.content).slice(1);
    const bounces = recipientBlocks.flatMap((fields) => {
      const bounce = bounceOf(fields);
      return bounce ? [{ ...bounce, fields }] : [];
    });
    if (bounces.length === 0) return null;
    const worst = bounces.find((bounce) => bounce.status === 'permanent') ?? bounces[0];
    const recipients = bounces.flatMap(({ fields }) =>
      [addressOf(fields.get('final-recipient')), addressOf(fields.get('original-recipient'))].filter((a): a is string => a !== null),
    );
    return {
      kind: 'bounce',
      status: worst.status,
      detail: clip([worst.code, worst.diagnostic].filter(Boolean).join(' ') || worst.status, 300),
      recipients: [...new Set(recipients)],
      reportId,
      text,
    };
  }

  const arf = parts.find((part) => part.type === 'message/feedback-report');
  if (arf) {
    const fields = fieldBlocks(arf.content)[0] ?? new Map<string, string>();
    const feedbackType = (fields.get('feedback-type') ?? '').toLowerCase();
    if (!/^[a-z0-9-]{1,40}$/.test(feedbackType)) return null;
    const recipient = addressOf(fields.get('original-rcpt-to'));
    return {
      kind: 'fbl',
      status: feedbackType,
      detail: clip([feedbackType, fields.get('user-agent'), fields.get('source-ip')].filter(Boolean).join(' '), 300),
      recipients: recipient ? [recipient] : [],
      reportId,
      text,
    };
  }
  return null;
}
