/**
 * Delivery status notifications (RFC 3464) and feedback reports (ARF, RFC 5965) as receiving mail systems send
 * them, written for the mail-report tests: a return path, the member's address and a report id go in.
 */

interface DsnOptions {
  /** The return path the report is addressed to (the VERP address), or another address. */
  to: string;
  /** The member's address: Final-Recipient and the returned headers' To. */
  recipient: string;
  action?: 'failed' | 'delayed' | 'delivered';
  status?: string;
  diagnostic?: string;
  /** The report's Message-ID (without brackets). */
  id?: string;
  /** The return path in the returned message's headers; none: the header is left out. */
  returnedReturnPath?: string | null;
}

/** A bounce as a Postfix-style MTA writes it: multipart/report; report-type=delivery-status. */
export function deliveryStatusReport(options: DsnOptions): string {
  const { to, recipient } = options;
  const action = options.action ?? 'failed';
  const status = options.status ?? '5.1.1';
  const diagnostic =
    options.diagnostic ?? `smtp; 550 ${status} <${recipient}>: Recipient address rejected: User unknown in virtual mailbox table`;
  const id = options.id ?? '20261128215502.4F1A2B3C7D@mx1.example.net';
  const returnPath = options.returnedReturnPath === undefined ? to : options.returnedReturnPath;
  return [
    'Return-Path: <>',
    `Delivered-To: ${to}`,
    'Received: by mx1.example.net (Postfix)',
    '\tid 4F1A2B3C7D; Sat, 28 Nov 2026 21:55:02 +0000 (UTC)',
    'Date: Sat, 28 Nov 2026 21:55:02 +0000 (UTC)',
    'From: MAILER-DAEMON@mx1.example.net (Mail Delivery System)',
    action === 'delayed' ? 'Subject: Delayed Mail (still being retried)' : 'Subject: Undelivered Mail Returned to Sender',
    `To: ${to}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status;',
    '\tboundary="4F1A2B3C7D.1764366902/mx1.example.net"',
    `Message-Id: <${id}>`,
    '',
    'This is a MIME-encapsulated message.',
    '',
    '--4F1A2B3C7D.1764366902/mx1.example.net',
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx1.example.net.',
    '',
    action === 'delayed'
      ? 'Your message could not be delivered for 4 hours. It will be retried until it is 5 days old.'
      : "I'm sorry to have to inform you that your message could not be delivered to one or more recipients.",
    '',
    `<${recipient}>: ${diagnostic.replace(/^smtp;\s*/, '')}`,
    '',
    '--4F1A2B3C7D.1764366902/mx1.example.net',
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx1.example.net',
    'X-Postfix-Queue-ID: 4F1A2B3C7D',
    'Arrival-Date: Sat, 28 Nov 2026 21:55:01 +0000 (UTC)',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    'Remote-MTA: dns; mail.example.net',
    `Diagnostic-Code: ${diagnostic}`,
    '',
    '--4F1A2B3C7D.1764366902/mx1.example.net',
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    '',
    ...(returnPath ? [`Return-Path: <${returnPath}>`] : []),
    'From: "Amora" <no-reply@amora.localhost>',
    `To: ${recipient}`,
    'Subject: You have a new message',
    'Message-ID: <a1b2c3d4@amora.localhost>',
    'Date: Sat, 28 Nov 2026 21:55:00 +0000',
    '',
    '--4F1A2B3C7D.1764366902/mx1.example.net--',
    '',
  ].join('\r\n');
}

interface ArfOptions {
  /** The return path of the reported message (the VERP address), or null: left out. */
  returnPath: string | null;
  recipient: string;
  feedbackType?: string;
  id?: string;
}

/** A spam complaint from a mailbox provider's feedback loop: multipart/report; report-type=feedback-report. */
export function feedbackReport(options: ArfOptions): string {
  const { returnPath, recipient } = options;
  const id = options.id ?? 'fbl.8842.20261128@feedback.example.org';
  return [
    'From: Feedback Loop <fbl@feedback.example.org>',
    'Date: Sat, 28 Nov 2026 22:10:00 +0000',
    'Subject: Complaint about a message from amora.localhost',
    'To: abuse@amora.localhost',
    `Message-ID: <${id}>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report;',
    '\tboundary="arf_boundary_7f3e"',
    '',
    '--arf_boundary_7f3e',
    'Content-Type: text/plain; charset="US-ASCII"',
    'Content-Transfer-Encoding: 7bit',
    '',
    'This is an email abuse report for a message received from IP 192.0.2.25 on Sat, 28 Nov 2026 21:55:00 +0000.',
    'A member of this mail service marked it as spam.',
    '',
    '--arf_boundary_7f3e',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${options.feedbackType ?? 'abuse'}`,
    'User-Agent: ExampleFBL/2.1',
    'Version: 1',
    ...(returnPath ? [`Original-Mail-From: <${returnPath}>`] : []),
    `Original-Rcpt-To: <${recipient}>`,
    'Arrival-Date: Sat, 28 Nov 2026 21:55:00 +0000',
    'Reporting-MTA: dns; mx.feedback.example.org',
    'Source-IP: 192.0.2.25',
    'Reported-Domain: amora.localhost',
    '',
    '--arf_boundary_7f3e',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    ...(returnPath ? [`Return-Path: <${returnPath}>`] : []),
    'Received: from mail.amora.localhost (mail.amora.localhost [192.0.2.25])',
    '\tby mx.feedback.example.org with ESMTPS id 7Q2c; Sat, 28 Nov 2026 21:55:00 +0000',
    'From: "Amora" <no-reply@amora.localhost>',
    `To: ${recipient}`,
    'Subject: You have a new message',
    'Message-ID: <a1b2c3d4@amora.localhost>',
    'Date: Sat, 28 Nov 2026 21:54:59 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello, someone wrote to you on Amora.',
    '',
    '--arf_boundary_7f3e--',
    '',
  ].join('\r\n');
}
