import { type Endpoint, type EndpointKey, type Endpoints, endpoints, type HttpMethod } from '@amora/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** The Fastify schema of an endpoint, typed so the zod type provider types the route's request and reply. */
export interface EndpointSchema<E> {
  tags: string[];
  summary: string;
  hide?: boolean;
  consumes?: readonly string[];
  params: E extends { params: infer S } ? S : undefined;
  querystring: E extends { query: infer S } ? S : undefined;
  body: E extends { body: infer S } ? S : undefined;
  response: E extends { response: infer S extends z.ZodType } ? (E extends { created: true } ? { 200: S; 201: S } : { 200: S }) : undefined;
}

type MethodOf<K> = K extends `${infer M extends HttpMethod} ${string}` ? M : never;
type PathOf<K> = K extends `${HttpMethod} ${infer P}` ? (P extends `${infer Path}?${string}` ? Path : P) : never;

/**
 * A key with a query (`'POST /api/user.php?push=1'`, spec §7) is a variant of its path's call: the router sends a
 * request whose query has that `name=value` to the variant's route, any other to the path's own. The variants are
 * the table's keys that have one.
 */
const QUERY_VARIANTS = Object.keys(endpoints)
  .map((key) => key.split('?')[1])
  .filter((query): query is string => query !== undefined)
  .map((query) => ({ query, params: [...new URLSearchParams(query)] }));

const queryVariant: Parameters<FastifyInstance['addConstraintStrategy']>[0] = {
  name: 'query',
  storage() {
    type Stored = ReturnType<ReturnType<Parameters<FastifyInstance['addConstraintStrategy']>[0]['storage']>['get']>;
    const handlers = new Map<string, Stored>();
    return {
      get: (value: string) => handlers.get(value) ?? null,
      set: (value: string, handler: Stored) => void handlers.set(value, handler),
    };
  },
  deriveConstraint(request: { url?: string }): string | undefined {
    const start = request.url?.indexOf('?') ?? -1;
    if (start < 0 || QUERY_VARIANTS.length === 0) return undefined;
    const query = new URLSearchParams(request.url?.slice(start + 1));
    return QUERY_VARIANTS.find((variant) => variant.params.every(([name, value]) => query.get(name) === value))?.query;
  },
  mustMatchWhenDerived: false,
};

/** The schemas endpoint() made, by the key they were made for: how a route is known to use its own entry. */
const madeFor = new WeakMap<object, EndpointKey>();

/**
 * A route's method, path and schema from the endpoints table (packages/contracts/src/endpoints), to spread into
 * `app.route({ ...endpoint('GET /api/settings.php'), handler })`: the query and body are validated with the
 * entry's schemas and the answer goes out through its response schema (201 too where it says `created`).
 */
export function endpoint<K extends EndpointKey>(
  key: K,
): { method: MethodOf<K>; url: PathOf<K>; schema: EndpointSchema<Endpoints[K]>; constraints?: { query: string }; config?: object } {
  const entry: Endpoint = endpoints[key];
  const space = key.indexOf(' ');
  const [url, query] = key.slice(space + 1).split('?');
  const schema: Record<string, unknown> = { tags: [entry.tag], summary: entry.summary };
  if (entry.hide) schema.hide = true;
  if (entry.consumes) schema.consumes = entry.consumes;
  if (entry.params) schema.params = entry.params;
  if (entry.query) schema.querystring = entry.query;
  if (entry.body) schema.body = entry.body;
  if (!('unchecked' in entry.response)) {
    schema.response = entry.created ? { 200: entry.response, 201: entry.response } : { 200: entry.response };
  }
  madeFor.set(schema, key);
  // A variant is documented under its path with the query: OpenAPI has one operation per path and method.
  const variant = query
    ? {
        constraints: { query },
        config: {
          swaggerTransform: (input: Parameters<typeof jsonSchemaTransform>[0]) => ({
            ...jsonSchemaTransform(input),
            url: `${url}?${query}`,
          }),
        },
      }
    : {};
  return { method: key.slice(0, space), url, schema, ...variant } as never;
}

const isApiRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * Holds the app's /api routes to the table: a route whose method and path have no entry, or that does not take
 * its schema from `endpoint()` of its own entry, is refused as it is registered; the returned check, run once
 * every route is in, refuses an entry no route answers (the development-only ones in production excepted) and
 * ends the hold (a test may add routes of its own to the built app).
 */
export function holdRoutesToEndpoints(app: FastifyInstance, options: { production: boolean }): () => void {
  const registered = new Set<string>();
  let holding = true;
  app.addConstraintStrategy(queryVariant);
  app.addHook('onRoute', (route) => {
    if (!holding || !isApiRoute(route.url)) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const variant = (route.constraints as { query?: string } | undefined)?.query;
      const key = `${method} ${route.url}${variant ? `?${variant}` : ''}`;
      if (!Object.hasOwn(endpoints, key)) {
        throw new Error(`${key} has no entry in the endpoints table (packages/contracts/src/endpoints)`);
      }
      if (!route.schema || madeFor.get(route.schema) !== key) {
        throw new Error(`${key} must take its method, path and schemas from its entry: app.route({ ...endpoint('${key}'), … })`);
      }
      if (registered.has(key)) throw new Error(`${key} is registered twice`);
      registered.add(key);
    }
  });
  return () => {
    holding = false;
    const missing = Object.entries(endpoints as Record<string, Endpoint>)
      .filter(([key, entry]) => !registered.has(key) && !(options.production && entry.dev))
      .map(([key]) => key);
    if (missing.length > 0) throw new Error(`Entries of the endpoints table no route answers: ${missing.join(', ')}`);
  };
}
