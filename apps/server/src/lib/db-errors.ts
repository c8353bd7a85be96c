/** PostgreSQL's code for a row that a unique index refused (the same on PGlite). */
const UNIQUE_VIOLATION = '23505';

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/**
 * The database error inside `error`: drizzle wraps the driver's error (node-postgres or PGlite, both with
 * PostgreSQL's `code` and `constraint`) in its own, as `cause`.
 */
function databaseError(error: unknown): PgErrorFields | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as PgErrorFields).cause, depth++) {
    if (typeof (e as PgErrorFields).code === 'string') return e as PgErrorFields;
  }
  return null;
}

/**
 * True when `error` is a duplicate key refused by a unique index; with `constraint`, only by that index
 * (its name in packages/db/src/schema/, e.g. 'users_site_email_idx').
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = databaseError(error);
  if (found?.code !== UNIQUE_VIOLATION) return false;
  return constraint === undefined || found.constraint === constraint;
}
