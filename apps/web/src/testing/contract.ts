import { isDeepStrictEqual } from 'node:util';
import { type Endpoints, endpoints, type JsonEndpointKey } from '@amora/contracts';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import type { z } from 'zod';

/** Paths of the values in `sent` that the schema dropped or changed on its way to `kept`. */
function droppedPaths(sent: unknown, kept: unknown, path = ''): string[] {
  if (isDeepStrictEqual(sent, kept)) return [];
  if (sent && kept && typeof sent === 'object' && typeof kept === 'object') {
    return Object.keys(sent).flatMap((key) =>
      key in kept
        ? droppedPaths((sent as Record<string, unknown>)[key], (kept as Record<string, unknown>)[key], `${path}.${key}`)
        : [`${path}.${key}`],
    );
  }
  return [path || '(body)'];
}

/**
 * The body of an API answer, as the server's route would send it: parsed by the same zod response schema
 * (packages/contracts) the route declares. A fixture the contract no longer accepts throws here, and so does
 * one with fields the schema would strip (the server would never send them), so a handler cannot drift from
 * the contract unnoticed.
 */
export function contractBody<S extends z.ZodType>(schema: S, body: z.input<S>): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`Test answer breaks its contract: ${result.error.message}`);
  const dropped = droppedPaths(body, result.data);
  if (dropped.length > 0) throw new Error(`Test answer has fields its contract does not send: ${dropped.join(', ')}`);
  return result.data;
}

/** A JSON answer whose body has been through the contract's response schema (see contractBody). */
export function contractJson<S extends z.ZodType>(schema: S, body: z.input<S>, init?: ResponseInit): HttpResponse<JsonBodyType> {
  return HttpResponse.json(contractBody(schema, body) as JsonBodyType, init);
}

type ResponseSchemaOf<K extends JsonEndpointKey> = Endpoints[K] extends { response: infer S extends z.ZodType } ? S : never;

/**
 * An MSW handler of a call of the endpoints table (packages/contracts/src/endpoints): its method and path from the
 * key, its body through the entry's response schema (see contractBody). `resolve` gets the request; answering
 * undefined leaves the call to the next handler.
 */
export function answer<K extends JsonEndpointKey>(
  key: K,
  resolve: (info: { request: Request }) => z.input<ResponseSchemaOf<K>> | undefined | Promise<z.input<ResponseSchemaOf<K>> | undefined>,
) {
  const space = key.indexOf(' ');
  const method = key.slice(0, space).toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  const schema: z.ZodType = endpoints[key].response;
  return http[method](`*${key.slice(space + 1)}`, async (info) => {
    const body = await resolve(info);
    return body === undefined ? undefined : contractJson(schema, body);
  });
}
