import {
  type ApiError,
  CLIENT_HEADER,
  CLIENT_HEADER_VALUE,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResponse,
  type JsonEndpointKey,
} from '@amora/contracts/core';

export class ApiRequestError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: ApiError,
  ) {
    super(body.message);
  }
  get code(): string {
    return this.body.error;
  }
  get field(): string | undefined {
    return this.body.field;
  }
}

/**
 * A 403 authentication_required on a call other than user.php (spec §8): the member is logged out and no error
 * text is shown for it. It is still the answer of that call, so a page that handles it (the search page's
 * "Log in to search members") recognises it as the ApiRequestError it is.
 */
export class SwallowedError extends ApiRequestError {}

type Listener = () => void;
const authLostListeners = new Set<Listener>();
export function onAuthenticationLost(listener: Listener): () => void {
  authLostListeners.add(listener);
  return () => authLostListeners.delete(listener);
}

/**
 * How a call reaches the API: the browser's fetch, or on the server, while it renders a member's page
 * (entry-server.tsx), its own API answering for that member.
 */
export type ApiTransport = (url: URL, init: RequestInit) => Promise<Response>;
let transport: ApiTransport | null = null;

/** Sets the server's transport (entry-server.tsx); the browser never sets one. */
export function setApiTransport(next: ApiTransport | null): void {
  transport = next;
}

/** The origin calls are made against: the page's, or a placeholder on the server (its transport ignores it). */
const origin = () => (typeof window === 'undefined' ? 'http://server.invalid' : window.location.origin);

const RETRIES = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type QueryValue = string | number | boolean | undefined | null;

/**
 * The query of a call: the fields its schema reads, each a text (a number or a boolean is sent as its text, an
 * empty or missing value not at all). Values are whatever the member asked for (an address's filters): the
 * server's schema checks them.
 */
type QueryOf<K extends JsonEndpointKey> = {
  [F in keyof EndpointQuery<K>]: unknown extends EndpointQuery<K>[F]
    ? QueryValue
    : string | number | boolean | Extract<EndpointQuery<K>[F], undefined>;
};

/** The names of a path's parameters: 'DELETE /api/console/sessions/:id' → 'id'. */
type ParamNames<S extends string> = S extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : S extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * What a call of the endpoint `K` takes: the values of its path's parameters, its query and JSON body as the
 * endpoints table says, and a signal.
 */
type RequestOptions<K extends JsonEndpointKey> = { signal?: AbortSignal } & ([ParamNames<K>] extends [never]
  ? { params?: never }
  : { params: Record<ParamNames<K>, string | number> }) &
  (EndpointQuery<K> extends undefined ? { query?: never } : object extends QueryOf<K> ? { query?: QueryOf<K> } : { query: QueryOf<K> }) &
  (EndpointBody<K> extends undefined
    ? { body?: never }
    : object extends EndpointBody<K>
      ? { body?: EndpointBody<K> }
      : { body: EndpointBody<K> });

/** The options argument, left out where nothing in it is required. */
type OptionsArg<K extends JsonEndpointKey> =
  object extends RequestOptions<K> ? [options?: RequestOptions<K>] : [options: RequestOptions<K>];

interface SentOptions {
  params?: Record<string, string | number>;
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
}

/**
 * The HTTP client of spec §7: JSON in and out, the client header on every call, and five retries with
 * exponential backoff for reads that fail on the network or with a server error. Writes are not retried,
 * so nothing is ever sent twice. The call names its endpoint as the endpoints table does ('GET
 * /api/settings.php', packages/contracts/src/endpoints), which gives its method and path, and the types of
 * its query, its body and its answer.
 */
export async function api<K extends JsonEndpointKey>(endpoint: K, ...[given]: OptionsArg<K>): Promise<EndpointResponse<K>> {
  const options = (given ?? {}) as SentOptions;
  const space = endpoint.indexOf(' ');
  const method = endpoint.slice(0, space);
  const path = endpoint
    .slice(space + 1)
    .replace(/:([a-z_]+)/gi, (_, name: string) => encodeURIComponent(String(options.params?.[name] ?? '')));
  const url = new URL(path, origin());
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    signal: options.signal,
    headers: {
      accept: 'application/json',
      [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  };
  const retries = method === 'GET' && !transport ? RETRIES : 0;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await (transport ?? fetch)(url, init);
    } catch (error) {
      if (attempt < retries && !options.signal?.aborted) {
        await sleep(2 ** attempt * 250);
        continue;
      }
      throw error;
    }
    if (response.status >= 500 && attempt < retries) {
      await sleep(2 ** attempt * 250);
      continue;
    }
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (response.ok) return data as EndpointResponse<K>;
    const body: ApiError = data && typeof data === 'object' ? data : { error: 'internal_error', message: response.statusText };
    if (response.status === 403 && body.authentication_required && !url.pathname.endsWith('/user.php')) {
      for (const listener of authLostListeners) listener();
      throw new SwallowedError(response.status, body);
    }
    throw new ApiRequestError(response.status, body);
  }
}
