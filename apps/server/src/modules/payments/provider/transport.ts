import { randomBytes } from 'node:crypto';
import type { MollieClient } from '@mollie/api-client';

/**
 * @mollie/api-client, loaded with the first payment request: a process that takes no payment (most of them, at
 * any moment) does not hold the library and what it pulls in (~10 MB resident). Every use awaits this.
 */
let mollie: Promise<typeof import('@mollie/api-client')> | undefined;
export function loadMollie(): Promise<typeof import('@mollie/api-client')> {
  mollie ??= import('@mollie/api-client');
  return mollie;
}

/**
 * How the adapter's requests reach an API that is not Mollie's own HTTPS endpoint.
 *
 * @mollie/api-client 4.6.0 sends every request through node-fetch with an `https.Agent` holding its own CA
 * bundle, so an `apiEndpoint` with plain http fails ('Protocol "http:" not supported. Expected "https:"') and a
 * local HTTPS server would need a certificate from one of Mollie's bundled authorities. For the sandbox (in
 * process, or over plain HTTP) and for a local stand-in of Mollie's servers in tests, the adapter swaps the
 * client's one request function for one that goes through a `Transport`. Everything above it is the library's
 * own: the binders build the same paths, query strings and JSON bodies, the transformers make the same Payment
 * objects, and errors become the same `ApiError`s. With Mollie's https endpoint the library's transport is left
 * as it is. The version is pinned exactly, and provider tests fail if the inside this relies on moves.
 */
interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

interface TransportResponse {
  status: number;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Plain HTTP(S) with the platform's fetch: a listening sandbox, or a stand-in for Mollie in tests. */
export function fetchTransport(timeoutMs = 15_000): Transport {
  return async ({ url, method, headers, body }) => {
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    return { status: response.status, body: await response.text() };
  };
}

/** Something that answers an HTTP request in this process (a Fastify app's `inject`). */
export interface InProcessServer {
  inject(options: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }): PromiseLike<{ statusCode: number; body: string }>;
}

/**
 * Requests answered in this process by the app that mounts the sandbox, without a socket: the sandbox works the
 * same in a server that has not started listening (tests with app.inject) and never waits on the network.
 * `server()` is asked per request, because the provider is made before the app that serves it.
 */
export function inProcessTransport(server: () => InProcessServer | null): Transport {
  return async ({ url, method, headers, body }) => {
    const target = server();
    if (!target) throw new Error('the payment sandbox is not mounted in this process');
    const response = await target.inject({
      method,
      url: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host },
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: response.statusCode, body: response.body };
  };
}

interface LibraryNetworkClient {
  request: (pathname: string, options?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<unknown>;
}

/** Mollie's default headers, as the library sets them. */
function baseHeaders(apiKey: string): Record<string, string> {
  return {
    Authorization: `Bearer ${apiKey}`,
    'User-Agent': `Node/${process.version} Mollie/4.6.0`,
    Accept: 'application/hal+json',
    'Content-Type': 'application/json',
  };
}

/** What the library does with an answer (processFetchResponse): true for no content, the JSON, or an ApiError. */
async function processAnswer(response: TransportResponse, idempotencyKey: string | undefined): Promise<unknown> {
  const { MollieApiError } = await loadMollie();
  if (response.status === 204) return true;
  const success = Math.floor(response.status / 100) === 2;
  if (response.body.length === 0 && success) return true;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    throw new MollieApiError('Received unexpected response from the server');
  }
  if (success) return json;
  if (json != null) throw MollieApiError.createFromResponse(json, idempotencyKey);
  throw new MollieApiError('An unknown error has occurred');
}

/** Puts `transport` under the client's binders (see the comment at the top). */
export function routeClientThrough(client: MollieClient, apiEndpoint: string, apiKey: string, transport: Transport): void {
  const network = (client.payments as unknown as { networkClient?: { networkClient?: LibraryNetworkClient } }).networkClient?.networkClient;
  if (!network || typeof network.request !== 'function') {
    throw new Error('@mollie/api-client changed inside: its requests can no longer be routed to the sandbox (pinned to 4.6.0)');
  }
  const endpoint = apiEndpoint.endsWith('/') ? apiEndpoint : `${apiEndpoint}/`;
  const defaults = baseHeaders(apiKey);
  network.request = async (pathname, options = {}) => {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers = { ...defaults, ...options.headers };
    // Like the library: every POST and DELETE carries an idempotency key, the caller's or a random one.
    if ((method === 'POST' || method === 'DELETE') && !headers['Idempotency-Key']) {
      headers['Idempotency-Key'] = randomBytes(18).toString('base64');
    }
    let response: TransportResponse;
    try {
      response = await transport({ url: new URL(pathname, endpoint), method, headers, body: options.body });
    } catch (error) {
      const { MollieApiError } = await loadMollie();
      throw new MollieApiError(error instanceof Error ? error.message : 'An unknown error has occurred');
    }
    return processAnswer(response, headers['Idempotency-Key']);
  };
}
