import { timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dbOf } from '../../../lib/transaction';
import { SANDBOX_API_KEY, SANDBOX_API_PATH } from '../provider';
import { availableMethods } from './sandbox.catalogue';
import {
  type Links,
  presentCustomer,
  presentMandate,
  presentMandatesPage,
  presentMethods,
  presentPayment,
  presentPaymentsPage,
  presentRefund,
  problem,
} from './sandbox.presenter';
import { listCustomerPayments, listPayments, type SandboxPayment } from './sandbox.repository';
import { SandboxError } from './sandbox.shared';
import {
  cancelPayment,
  createCustomer,
  createMandate,
  createPayment,
  createRefund,
  getCustomer,
  getMandate,
  getPayment,
  listMandates,
  methodsQueryOf,
} from './sandbox-api.service';

/** The one bearer key the sandbox takes: this process's (provider/index.ts), known only to its own adapter. */
const EXPECTED_AUTHORIZATION = Buffer.from(`Bearer ${SANDBOX_API_KEY}`);

function authorized(header: string | undefined): boolean {
  const given = Buffer.from(header ?? '');
  return given.length === EXPECTED_AUTHORIZATION.length && timingSafeEqual(given, EXPECTED_AUTHORIZATION);
}
const HAL = 'application/hal+json; charset=utf-8';
const ROUTE = { config: { anyHost: true }, schema: { hide: true } } as const;

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).header('cache-control', 'no-store').type(HAL).send(JSON.stringify(body));
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The links of an answer: the API's own address as it was called, and where the payer's browser finds the
 * test checkout: on the site the payment returns to (its redirect URL's host, when that is one of our sites),
 * so the payer stays on the address she came from; otherwise on the address the API was called on.
 */
async function linksFor(app: FastifyInstance, request: FastifyRequest, payment?: Pick<SandboxPayment, 'redirectUrl'>): Promise<Links> {
  const api = `${origin(request)}${SANDBOX_API_PATH}`;
  if (payment?.redirectUrl) {
    try {
      const url = new URL(payment.redirectUrl);
      if (await app.ctx.sites.forHost(url.host, true)) return { api, pages: url.origin };
    } catch {
      // not a URL we can use: the API's address it is
    }
  }
  return { api, pages: origin(request) };
}

/** The Mollie API v2 subset the adapter uses, at /sandbox/mollie/v2, answering in Mollie's shapes. */
export async function sandboxApiRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    if (authorized(request.headers.authorization)) return done();
    send(reply, 401, problem(401, 'Missing authentication, or failed to authenticate'));
  });

  app.setErrorHandler((error: FastifyError | SandboxError, request, reply) => {
    if (error instanceof SandboxError) return send(reply, error.status, problem(error.status, error.detail, error.field));
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) return send(reply, status, problem(status, error.message));
    request.log.error({ err: error }, 'payment sandbox API error');
    return send(reply, 500, problem(500, 'An internal error occurred in the payment sandbox'));
  });

  app.setNotFoundHandler((request, reply) => {
    send(reply, 404, problem(404, `The resource ${request.method} ${request.url.split('?')[0]} does not exist in the payment sandbox`));
  });

  const now = () => app.ctx.now();
  const idempotencyKey = (request: FastifyRequest) => {
    const key = request.headers['idempotency-key'];
    return typeof key === 'string' ? key : undefined;
  };

  app.get('/methods', ROUTE, async (request, reply) => {
    const query = methodsQueryOf(request.query as Record<string, unknown>);
    const methods = availableMethods(query);
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return send(reply, 200, presentMethods(methods, query.amount?.currency ?? 'EUR', query.locale, await linksFor(app, request), search));
  });

  app.post('/payments', ROUTE, async (request, reply) => {
    const { payment } = await createPayment(app, request.body, { idempotencyKey: idempotencyKey(request) });
    return send(reply, 201, presentPayment(payment, await linksFor(app, request, payment), now()));
  });

  app.get('/payments', ROUTE, async (request, reply) => {
    const limit = Math.min(250, Math.max(1, Number((request.query as Record<string, unknown>).limit) || 50));
    const payments = await listPayments(dbOf(app.ctx), limit);
    const links = await linksFor(app, request);
    return send(reply, 200, presentPaymentsPage(payments, links, now(), `${links.api}/payments`));
  });

  app.get<{ Params: { id: string } }>('/payments/:id', ROUTE, async (request, reply) => {
    const payment = await getPayment(app, request.params.id);
    return send(reply, 200, presentPayment(payment, await linksFor(app, request, payment), now()));
  });

  app.delete<{ Params: { id: string } }>('/payments/:id', ROUTE, async (request, reply) => {
    const payment = await cancelPayment(app, request.params.id);
    return send(reply, 200, presentPayment(payment, await linksFor(app, request, payment), now()));
  });

  app.post<{ Params: { id: string } }>('/payments/:id/refunds', ROUTE, async (request, reply) => {
    const refund = await createRefund(app, request.params.id, request.body);
    return send(reply, 201, presentRefund(refund, await linksFor(app, request)));
  });

  app.post('/customers', ROUTE, async (request, reply) => {
    const customer = await createCustomer(app, request.body);
    return send(reply, 201, presentCustomer(customer, await linksFor(app, request)));
  });

  app.get<{ Params: { id: string } }>('/customers/:id', ROUTE, async (request, reply) => {
    const customer = await getCustomer(app, request.params.id);
    return send(reply, 200, presentCustomer(customer, await linksFor(app, request)));
  });

  app.post<{ Params: { id: string } }>('/customers/:id/mandates', ROUTE, async (request, reply) => {
    const mandate = await createMandate(app, request.params.id, request.body);
    return send(reply, 201, presentMandate(mandate, await linksFor(app, request)));
  });

  app.get<{ Params: { id: string } }>('/customers/:id/mandates', ROUTE, async (request, reply) => {
    const mandates = await listMandates(app, request.params.id);
    return send(reply, 200, presentMandatesPage(mandates, await linksFor(app, request), request.params.id));
  });

  app.get<{ Params: { id: string; mandateId: string } }>('/customers/:id/mandates/:mandateId', ROUTE, async (request, reply) => {
    const mandate = await getMandate(app, request.params.id, request.params.mandateId);
    return send(reply, 200, presentMandate(mandate, await linksFor(app, request)));
  });

  app.post<{ Params: { id: string } }>('/customers/:id/payments', ROUTE, async (request, reply) => {
    const { payment } = await createPayment(app, request.body, { customerId: request.params.id, idempotencyKey: idempotencyKey(request) });
    return send(reply, 201, presentPayment(payment, await linksFor(app, request, payment), now()));
  });

  app.get<{ Params: { id: string } }>('/customers/:id/payments', ROUTE, async (request, reply) => {
    await getCustomer(app, request.params.id);
    const payments = await listCustomerPayments(dbOf(app.ctx), request.params.id, 50);
    const links = await linksFor(app, request);
    return send(reply, 200, presentPaymentsPage(payments, links, now(), `${links.api}/customers/${request.params.id}/payments`));
  });
}
