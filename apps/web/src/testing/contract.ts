import { isDeepStrictEqual } from 'node:util';
import { HttpResponse, type JsonBodyType } from 'msw';
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
