import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendHtmlPage } from '../../../lib/html-page';
import { dbOf } from '../../../lib/transaction';
import { checkoutPage, closedPage, dashboardPage, page } from './sandbox.html';
import { listPayments } from './sandbox.repository';
import { chargeBackPayment, completeCheckout, settlePayment } from './sandbox.service';
import { CHECKOUT_CHOICES, type CheckoutChoice, notifyLater, notifyNow, SandboxError, scheduleChargeback } from './sandbox.shared';
import { getPayment } from './sandbox-api.service';

const ROUTE = { config: { anyHost: true }, schema: { hide: true } } as const;
/** After the redirect, the webhook comes this much later (the usual order: the return page waits for it). */
const WEBHOOK_AFTER_REDIRECT_MS = 1_500;
const DASHBOARD_SIZE = 100;
const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

type Form = Record<string, string>;

function field(form: unknown, name: string): string | undefined {
  const value = (form as Form | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function wholeNumber(value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/**
 * The page's CSP with the origins a form here may end up at: the checkout's POST answers with a redirect to the
 * payment's redirect (or cancel) URL, and browsers hold that redirect to the form's `form-action`.
 */
function withFormTargets(reply: FastifyReply, urls: (string | null)[]): void {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp !== 'string') return;
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      const { origin, protocol } = new URL(url);
      if (protocol === 'http:' || protocol === 'https:') origins.add(origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  if (origins.size === 0) return;
  reply.header('content-security-policy', csp.replace(/form-action 'self'/, `form-action 'self' ${[...origins].join(' ')}`));
}

/** Forms of these pages come from these pages: a form posted from another site is refused. */
function crossSite(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] === 'cross-site';
}

async function paymentOrNull(app: FastifyInstance, id: string) {
  if (!PAYMENT_ID.test(id)) return null;
  try {
    return await getPayment(app, id);
  } catch (error) {
    if (error instanceof SandboxError && error.status === 404) return null;
    throw error;
  }
}

/** The hosted test checkout (/sandbox/checkout/:id) and the dashboard (/sandbox) with its actions. */
export async function sandboxPageRoutes(app: FastifyInstance): Promise<void> {
  // The checkout's and the dashboard's forms (this plugin's routes only).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get<{ Params: { id: string } }>('/sandbox/checkout/:id', ROUTE, async (request, reply) => {
    const payment = await paymentOrNull(app, request.params.id);
    if (!payment) return sendHtmlPage(reply, 404, closedPage(null, request.params.id));
    if (payment.status !== 'open' || payment.sequenceType === 'recurring') return sendHtmlPage(reply, 200, closedPage(payment, payment.id));
    withFormTargets(reply, [payment.redirectUrl, payment.cancelUrl]);
    return sendHtmlPage(reply, 200, checkoutPage(payment));
  });

  app.post<{ Params: { id: string } }>('/sandbox/checkout/:id', ROUTE, async (request, reply) => {
    if (crossSite(request))
      return sendHtmlPage(
        reply,
        403,
        page('Refused', '<div class="card"><h1>Refused</h1><p>This form can only be sent from the test checkout.</p></div>'),
      );
    const payment = await paymentOrNull(app, request.params.id);
    if (!payment) return sendHtmlPage(reply, 404, closedPage(null, request.params.id));
    const status = field(request.body, 'status') as CheckoutChoice | undefined;
    if (!status || !CHECKOUT_CHOICES.includes(status)) {
      return sendHtmlPage(
        reply,
        400,
        page(
          'Choose an outcome',
          '<div class="card"><h1>Choose an outcome</h1><p>Pick paid, failed, canceled, expired or pending.</p></div>',
        ),
      );
    }
    const done = await completeCheckout(app, payment.id, {
      status,
      method: field(request.body, 'method'),
      card: field(request.body, 'card'),
      issuer: field(request.body, 'issuer'),
    });
    // Already decided (a second click, another tab): show what it is.
    if (!done) return reply.redirect(`/sandbox/checkout/${encodeURIComponent(payment.id)}`, 303);

    const copies = wholeNumber(field(request.body, 'copies'), 1, 5, 1);
    const timing = field(request.body, 'webhook');
    // Mollie calls the webhook for every status change but not for pending.
    if (status !== 'pending' && timing !== 'none') {
      if (timing === 'before') await notifyNow(app, done, copies);
      else await notifyLater(app, done.id, WEBHOOK_AFTER_REDIRECT_MS, copies);
    }
    const chargebackAfter = wholeNumber(field(request.body, 'chargeback_after'), 0, 86_400, -1);
    if (status === 'paid' && chargebackAfter >= 0) await scheduleChargeback(app, done.id, chargebackAfter * 1000);

    const target = status === 'canceled' && done.cancelUrl ? done.cancelUrl : done.redirectUrl;
    return reply.redirect(target ?? `/sandbox/checkout/${encodeURIComponent(done.id)}`, 303);
  });

  app.get('/sandbox', ROUTE, async (request, reply) => {
    const payments = await listPayments(dbOf(app.ctx), DASHBOARD_SIZE);
    const notice = field(request.query, 'notice') ?? null;
    return sendHtmlPage(reply, 200, dashboardPage(payments, notice ? notice.slice(0, 300) : null, app.ctx.now()));
  });

  /** A dashboard action: does it, calls the webhook at once, and comes back to the dashboard saying what happened. */
  const dashboardAction = (
    path: string,
    run: (id: string, form: unknown) => Promise<{ id: string; webhookUrl: string | null } | undefined>,
    what: string,
  ) =>
    app.post<{ Params: { id: string } }>(`/sandbox/payments/:id/${path}`, ROUTE, async (request, reply) => {
      if (crossSite(request))
        return sendHtmlPage(
          reply,
          403,
          page('Refused', '<div class="card"><h1>Refused</h1><p>This form can only be sent from the sandbox dashboard.</p></div>'),
        );
      const payment = await paymentOrNull(app, request.params.id);
      if (!payment) return sendHtmlPage(reply, 404, closedPage(null, request.params.id));
      const changed = await run(payment.id, request.body);
      let notice: string;
      if (!changed)
        notice = `${payment.id}: nothing to do (it is ${payment.status}${payment.amountChargedBackMinor > 0 ? ', charged back' : ''}).`;
      else {
        const current = await getPayment(app, payment.id);
        const [result] = await notifyNow(app, current);
        const webhook = !current.webhookUrl
          ? 'no webhook URL'
          : result?.ok
            ? `webhook answered ${result.status}`
            : `webhook failed (${result?.status ?? result?.error ?? 'no answer'}), retried by the job`;
        notice = `${payment.id} ${what}: ${webhook}.`;
      }
      return reply.redirect(`/sandbox?notice=${encodeURIComponent(notice)}#${encodeURIComponent(payment.id)}`, 303);
    });

  dashboardAction('settle', (id, form) => settlePayment(app, id, field(form, 'status') === 'failed' ? 'failed' : 'paid'), 'settled');
  dashboardAction('chargeback', (id) => chargeBackPayment(app, id), 'charged back');
  dashboardAction('webhook', async (id) => getPayment(app, id), 'webhook sent again');
}
