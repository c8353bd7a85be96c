import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { hasKeys } from '../lib/objects';

type Validate = ReturnType<FastifySchemaCompiler<FastifySchema>>;

interface ParsesSafely {
  safeParse(input: unknown): { success: boolean; data?: unknown };
}

const parsesSafely = (schema: unknown): schema is ParsesSafely =>
  typeof schema === 'object' && schema !== null && typeof (schema as ParsesSafely).safeParse === 'function';

/** A plain object with no own keys: what Fastify hands a route for a request without a query string. */
function isEmptyPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !hasKeys(value);
}

/**
 * The zod validator compiler, with one shortcut: most calls carry no query string, so their query is an empty
 * object. When a schema's answer to an empty object is known at start-up to be that same empty object (every
 * field optional, no defaults, no transforms), an empty input is passed through without parsing it again.
 * Anything else, an empty input for a schema that rejects it included, is parsed as always.
 */
export const validatorWithEmptyShortcut: FastifySchemaCompiler<FastifySchema> = (route) => {
  const validate = validatorCompiler(route as never) as Validate;
  const { schema } = route;
  if (!parsesSafely(schema)) return validate;
  const empty = schema.safeParse({});
  const emptyStaysEmpty =
    empty.success &&
    typeof empty.data === 'object' &&
    empty.data !== null &&
    [Object.prototype, null].includes(Object.getPrototypeOf(empty.data)) &&
    Object.keys(empty.data).length === 0;
  if (!emptyStaysEmpty) return validate;
  return ((data: unknown) => (isEmptyPlainObject(data) ? { value: data } : validate(data))) as Validate;
};
