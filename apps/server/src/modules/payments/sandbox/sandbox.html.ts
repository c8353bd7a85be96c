import { escapeHtml, htmlPage } from '../../../lib/html-page';
import { currencyDecimals } from '../provider/amounts';
import { availableMethods, findMethod, methodDescription, type SandboxSequenceType, TEST_CARDS, TEST_ISSUERS } from './sandbox.catalogue';
import type { SandboxPayment } from './sandbox.repository';

/**
 * The sandbox's pages, readable on a phone and on a desktop, in the server's HTML shell (lib/html-page.ts): one
 * inline style sheet, no script; every text that came from a request (descriptions, URLs, ids) is escaped.
 */
function formatAmount(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: decimals }).format(minor / 10 ** decimals);
  } catch {
    return `${(minor / 10 ** decimals).toFixed(decimals)} ${currency}`;
  }
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d2330;background:#eef1f6}
a{color:#0b5cad}
.test-band{background:repeating-linear-gradient(45deg,#ffd84d,#ffd84d 14px,#ffe680 14px,#ffe680 28px);color:#3d2f00;text-align:center;font-weight:700;padding:8px 12px;font-size:14px;letter-spacing:.02em}
main{max-width:560px;margin:0 auto;padding:20px 16px 40px}
main.wide{max-width:1180px}
.card{background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(20,30,60,.12);padding:20px;margin:0 0 16px}
h1{font-size:22px;margin:0 0 4px}
h1.label{font-size:14px;font-weight:400;color:#5b6475;margin:0}
h2{font-size:16px;margin:0 0 12px}
.muted{color:#5b6475;font-size:14px}
.amount{font-size:34px;font-weight:700;margin:8px 0 2px;letter-spacing:-.01em}
.description{margin:0;word-break:break-word}
fieldset{border:0;margin:0 0 16px;padding:0}
legend{font-weight:600;margin:0 0 8px;padding:0}
.options{display:grid;gap:8px}
.option{display:flex;gap:10px;align-items:center;border:1px solid #d4d9e3;border-radius:10px;padding:10px 12px;cursor:pointer}
.option input{margin:0;width:18px;height:18px}
label.field{display:block;margin:0 0 12px;font-size:14px;color:#3a4252}
select,input[type=number]{display:block;width:100%;margin-top:4px;font:inherit;padding:9px 10px;border:1px solid #c4cad6;border-radius:8px;background:#fff}
.outcomes{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.outcomes button:first-child{grid-column:1/-1}
button{font:inherit;font-weight:600;border:0;border-radius:10px;padding:13px 14px;cursor:pointer;color:#fff;min-height:48px}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
.paid{background:#17803d}.failed{background:#b42318}.canceled{background:#5b6475}.expired{background:#a15c07}.pending{background:#1f5fbf}
.small{padding:7px 10px;min-height:0;font-size:13px;border-radius:8px}
.switches{background:#f6f8fb;border-radius:10px;padding:14px 14px 2px;margin:0 0 16px}
.status{display:inline-block;border-radius:999px;padding:2px 10px;font-size:13px;font-weight:600;background:#e3e8f0}
.status-paid{background:#dcf3e3;color:#0f5f2b}.status-failed{background:#fde4e1;color:#9b1c13}
.status-pending,.status-open{background:#e1ebfb;color:#174a94}.status-expired{background:#fbeed9;color:#7a4504}
.status-canceled{background:#e8eaef;color:#3a4252}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{text-align:left;padding:8px;border-top:1px solid #e3e7ee;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#5b6475;border-top:0}
td form{display:inline-block;margin:0 4px 4px 0}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;word-break:break-all}
.notice{border-left:4px solid #17803d;background:#eef8f1;padding:10px 12px;border-radius:6px;margin:0 0 16px}
@media (max-width:760px){
 table.payments thead{display:none}
 table.payments tr{display:block;border-top:1px solid #e3e7ee;padding:8px 0}
 table.payments td{display:block;border:0;padding:3px 0}
 table.payments td[data-label]::before{content:attr(data-label) ": ";color:#5b6475;font-size:12px}
}
`;

export function page(title: string, body: string, options: { wide?: boolean } = {}): string {
  return htmlPage(
    title,
    `<header class="test-band">TEST MODE · payment sandbox · no real money is moved</header>
<main${options.wide ? ' class="wide"' : ''}>
${body}
</main>`,
    { style: STYLE },
  );
}

function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}

function methodName(id: string | null, locale: string | null): string {
  const method = id ? findMethod(id) : undefined;
  return method ? methodDescription(method, locale) : (id ?? 'chosen on this page');
}

/** The test checkout of an open payment: the payer's outcome, method, card or bank, and the test switches. */
export function checkoutPage(payment: SandboxPayment): string {
  const query = {
    amount: { minor: payment.amountMinor, currency: payment.currency },
    billingCountry: payment.billingCountry,
    sequenceType: payment.sequenceType as SandboxSequenceType,
    includeWallets: true,
  };
  const methods = payment.method ? [] : availableMethods(query);
  const fixed = payment.method;
  const showCards = !fixed || fixed === 'creditcard' || fixed === 'applepay';
  const issuers = fixed ? TEST_ISSUERS[fixed as keyof typeof TEST_ISSUERS] : undefined;
  const methodChoice = methods.length
    ? `<fieldset>
<legend>Payment method</legend>
<div class="options">
${methods
  .map(
    (m, i) =>
      `<label class="option"><input type="radio" name="method" value="${escapeHtml(m.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(methodDescription(m, payment.locale))}</label>`,
  )
  .join('\n')}
</div>
</fieldset>`
    : '';
  const cardChoice = showCards
    ? `<label class="field">Card${fixed ? '' : ' (for card payments)'}
<select name="card">${TEST_CARDS.map((c) => `<option value="${escapeHtml(c.name)}">${escapeHtml(c.name)} ···· ${escapeHtml(c.number)}</option>`).join('')}</select>
</label>`
    : '';
  const issuerChoice = issuers
    ? `<label class="field">Bank
<select name="issuer">${issuers.map((name) => `<option value="${escapeHtml(name)}">${escapeHtml(name)}</option>`).join('')}</select>
</label>`
    : '';
  const body = `<div class="card">
<h1 class="label">Test checkout${payment.sequenceType === 'first' ? ' · first payment of a mandate' : ''}</h1>
<p class="amount">${escapeHtml(formatAmount(payment.amountMinor, payment.currency))}</p>
<p class="description">${escapeHtml(payment.description)}</p>
<p class="muted mono">${escapeHtml(payment.id)}${fixed ? ` · ${escapeHtml(methodName(fixed, payment.locale))}` : ''}</p>
</div>
<form class="card" method="post" action="/sandbox/checkout/${encodeURIComponent(payment.id)}">
${methodChoice}
${cardChoice}
${issuerChoice}
<div class="switches">
<h2>Test switches</h2>
<label class="field">Webhook
<select name="webhook">
<option value="after">After the redirect (as usual)</option>
<option value="before">Before the redirect</option>
<option value="none">Never (a lost webhook)</option>
</select>
</label>
<label class="field">Times the webhook is sent (duplicates)
<input type="number" name="copies" min="1" max="5" value="1" inputmode="numeric">
</label>
<label class="field">Charge back a paid payment after … seconds (empty: never)
<input type="number" name="chargeback_after" min="0" max="86400" placeholder="never" inputmode="numeric">
</label>
</div>
<fieldset>
<legend>Outcome</legend>
<div class="outcomes">
<button type="submit" name="status" value="paid" class="paid">Paid</button>
<button type="submit" name="status" value="failed" class="failed">Failed</button>
<button type="submit" name="status" value="canceled" class="canceled">Canceled</button>
<button type="submit" name="status" value="expired" class="expired">Expired</button>
<button type="submit" name="status" value="pending" class="pending">Pending</button>
</div>
</fieldset>
<p class="muted">Pending leaves the payment waiting; settle it later on the <a href="/sandbox">sandbox dashboard</a>.</p>
</form>`;
  return page('Test checkout', body);
}

/** A payment that is no longer open (or an unknown id): what happened, and the way back. */
export function closedPage(payment: SandboxPayment | null, id: string): string {
  if (!payment) {
    return page(
      'Payment not found',
      `<div class="card"><h1>Payment not found</h1><p>The sandbox has no payment <span class="mono">${escapeHtml(id)}</span>.</p><p><a href="/sandbox">Sandbox dashboard</a></p></div>`,
    );
  }
  const back = payment.redirectUrl ? `<p><a href="${escapeHtml(payment.redirectUrl)}">Back to the shop</a></p>` : '';
  return page(
    'Test payment',
    `<div class="card">
<h1 class="label">Test checkout</h1>
<p class="amount">${escapeHtml(formatAmount(payment.amountMinor, payment.currency))}</p>
<p class="description">${escapeHtml(payment.description)}</p>
<p>This payment is ${statusBadge(payment.status)} and can no longer be paid here.</p>
${back}
<p class="muted"><a href="/sandbox">Sandbox dashboard</a></p>
</div>`,
  );
}

function action(id: string, path: string, label: string, className: string, fields: Record<string, string> = {}): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<form method="post" action="/sandbox/payments/${encodeURIComponent(id)}/${path}">${hidden}<button type="submit" class="${className} small">${escapeHtml(label)}</button></form>`;
}

/** The dashboard: recent payments with what can be done to each. */
export function dashboardPage(payments: SandboxPayment[], notice: string | null, now: Date): string {
  const rows = payments
    .map((p) => {
      const actions: string[] = [];
      if (p.status === 'open' && p.sequenceType !== 'recurring') {
        actions.push(`<a href="/sandbox/checkout/${encodeURIComponent(p.id)}">Open checkout</a> `);
      }
      if (p.status === 'pending' || p.status === 'open') {
        actions.push(action(p.id, 'settle', 'Settle: paid', 'paid', { status: 'paid' }));
        actions.push(action(p.id, 'settle', 'Settle: failed', 'failed', { status: 'failed' }));
      }
      if (p.status === 'paid' && p.amountChargedBackMinor === 0) actions.push(action(p.id, 'chargeback', 'Charge back', 'failed'));
      if (p.webhookUrl) actions.push(action(p.id, 'webhook', 'Send webhook again', 'canceled'));
      const card = p.details.cardLabel
        ? ` (${escapeHtml(p.details.cardLabel)})`
        : p.details.issuer
          ? ` (${escapeHtml(p.details.issuer)})`
          : '';
      const chargedBack =
        p.amountChargedBackMinor > 0
          ? `<br><span class="muted">charged back ${escapeHtml(formatAmount(p.amountChargedBackMinor, p.currency))}</span>`
          : '';
      return `<tr id="${escapeHtml(p.id)}">
<td data-label="Payment"><span class="mono">${escapeHtml(p.id)}</span><br><span class="muted">${escapeHtml(p.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC</span></td>
<td data-label="Amount">${escapeHtml(formatAmount(p.amountMinor, p.currency))}${chargedBack}</td>
<td data-label="Description">${escapeHtml(p.description)}</td>
<td data-label="Method">${escapeHtml(p.method ?? '–')}${card}<br><span class="muted">${escapeHtml(p.sequenceType)}</span></td>
<td data-label="Status">${statusBadge(p.status)}</td>
<td data-label="Actions">${actions.join('') || '<span class="muted">–</span>'}</td>
</tr>`;
    })
    .join('\n');
  const body = `<div class="card">
<h1>Payment sandbox</h1>
<p class="muted">The sandbox answers Mollie's API at <span class="mono">/sandbox/mollie/v2</span>. The newest ${payments.length} payments as of ${escapeHtml(now.toISOString().slice(0, 19).replace('T', ' '))} UTC. Settling, charging back or sending again calls the payment's webhook at once.</p>
</div>
${notice ? `<div class="notice" role="status">${escapeHtml(notice)}</div>` : ''}
<div class="card">
${
  payments.length
    ? `<table class="payments">
<thead><tr><th>Payment</th><th>Amount</th><th>Description</th><th>Method</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No payments yet.</p>'
}
</div>`;
  return page('Payment sandbox', body, { wide: true });
}
