import { type ApiError, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@amora/contracts/core';

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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
}

/**
 * The HTTP client of spec §7: JSON in and out, the client header on every call, and five retries with
 * exponential backoff for reads that fail on the network or with a server error. Writes are not retried,
 * so nothing is ever sent twice.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
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
    if (response.ok) return data as T;
    const body: ApiError = data && typeof data === 'object' ? data : { error: 'internal_error', message: response.statusText };
    if (response.status === 403 && body.authentication_required && !url.pathname.endsWith('/user.php')) {
      for (const listener of authLostListeners) listener();
      throw new SwallowedError(response.status, body);
    }
    throw new ApiRequestError(response.status, body);
  }
}
