import type { FastifyInstance } from 'fastify';

/**
 * How the sandbox calls a payment's webhook, as Mollie does: a POST with the form body `id=tr_…` and nothing
 * else, so the receiver must fetch the payment to learn what happened. A 2xx answer is a delivery; anything else
 * (or no answer in 10 s) is retried by the `sandbox.webhook` job (30 s, 1, 2, 4 … minutes, 10 attempts), as
 * Mollie retries.
 *
 * Where it goes: when the webhook URL's host is one of this installation's sites (or localhost) on this
 * server's port, or on no port at all (a site behind its proxy), the request is handed to this app in process
 * (`app.inject`), through the whole request gate like any request, but without a socket, so it also works in a
 * server that is not listening (tests with app.inject only) and never depends on what the server's address looks
 * like from inside. Any other URL is called over HTTP(S).
 */
export interface WebhookResult {
  ok: boolean;
  status: number | null;
  via: 'in-process' | 'http';
  error?: string;
}

const TIMEOUT_MS = 10_000;
const USER_AGENT = 'Mollie/Sandbox (Amora test provider)';

async function isOwnAddress(app: FastifyInstance, url: URL): Promise<boolean> {
  const site = await app.ctx.sites.forHost(url.host, true);
  if (!site) return false;
  if (!url.port) return true;
  const port = Number(url.port);
  const address = app.server.address();
  const listening = address && typeof address === 'object' ? address.port : null;
  return port === app.ctx.config.port || port === app.ctx.config.linkPort || port === listening;
}

export async function deliverWebhook(app: FastifyInstance, webhookUrl: string, paymentId: string): Promise<WebhookResult> {
  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    return { ok: false, status: null, via: 'http', error: 'invalid webhook URL' };
  }
  const body = new URLSearchParams({ id: paymentId }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT };
  if (await isOwnAddress(app, url)) {
    try {
      const response = await app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
        payload: body,
      });
      return { ok: response.statusCode >= 200 && response.statusCode < 300, status: response.statusCode, via: 'in-process' };
    } catch (error) {
      return { ok: false, status: null, via: 'in-process', error: error instanceof Error ? error.message : String(error) };
    }
  }
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.arrayBuffer().catch(() => undefined);
    return { ok: response.ok, status: response.status, via: 'http' };
  } catch (error) {
    return { ok: false, status: null, via: 'http', error: error instanceof Error ? error.message : String(error) };
  }
}
