import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An answer no JSON schema checks, and what it is instead. */
export interface UncheckedResponse {
  unchecked: 'binary' | 'redirect' | 'websocket' | 'event-stream';
  /** What goes out: a file's content type, where a redirect leads, what a socket or a stream of events carries. */
  sends: string;
}

/** One call of the API: its request and response schemas and its OpenAPI description. */
export interface Endpoint {
  /** The OpenAPI tag. */
  tag: string;
  summary: string;
  query?: z.ZodType;
  /** Path parameters (`:name` in the key's path). */
  params?: z.ZodType;
  body?: z.ZodType;
  /** A body that is not JSON: the uploads' multipart, the payment provider's form. */
  consumes?: readonly string[];
  /** The schema every answer goes out through (Fastify's serializer), or why there is none. */
  response: z.ZodType | UncheckedResponse;
  /** Answers 201 (with the same body) when it made something, 200 when it answered again. */
  created?: true;
  /** Development only: not registered in production. */
  dev?: true;
  /** Left out of the OpenAPI document. */
  hide?: true;
}

/** Endpoints by `'METHOD /path'`. */
export type EndpointTable = Record<`${HttpMethod} /api/${string}`, Endpoint>;

export const unchecked = (kind: UncheckedResponse['unchecked'], sends: string): UncheckedResponse => ({ unchecked: kind, sends });
