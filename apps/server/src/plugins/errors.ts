import { translate } from '@amora/i18n';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/errors';

/** zod messages that are catalogue keys ('auth.errors.invalidEmail') are sent as English text plus the key. */
const CATALOGUE_KEY = /^[a-z]+(\.[a-zA-Z]+)+$/;

export const GENERIC_ERROR = 'An error occurred, please try again later';

/**
 * The SQLSTATE of a database error, wherever it sits: on the error (pg, PGlite) or on its cause (Drizzle wraps
 * the driver's error in a DrizzleQueryError).
 */
function sqlState(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Fastify's router errors (a path that is not valid percent-encoding, a path parameter over its length)
 * answer in our shape instead of Fastify's own, which repeats the path and names Fastify's error code.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, _request, reply) => {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  (reply as FastifyReply).status(status).send({ error: 'bad_request', message: 'The address of the request is not valid', field: 'path' });
};

/** Every error leaves as `{ error, message, ...flags }`; internals are logged, never sent. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // A throttled or busy answer says when to come back in the header too (RFC 9110 Retry-After, in seconds).
      const retryAfter = error.extra.retry_after_seconds;
      if (typeof retryAfter === 'number' && (error.statusCode === 429 || error.statusCode === 503)) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
      }
      return reply.status(error.statusCode).send({ error: error.code, message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const path =
        issue?.instancePath?.replace(/^\//, '').replace(/\//g, '.') ||
        (issue?.params as { issue?: { path?: string[] } } | undefined)?.issue?.path?.join('.') ||
        '';
      const unknownKey = (issue?.params as { keys?: string[] } | undefined)?.keys?.[0];
      const field = unknownKey ?? (path || (error.validationContext ?? 'body'));

      const key = issue?.message && CATALOGUE_KEY.test(issue.message) ? issue.message : undefined;
      return reply.status(400).send({
        error: 'validation_failed',
        message: key ? translate('en', key) : `Invalid ${field}: ${issue?.message ?? 'invalid value'}`,
        field,
        ...(key ? { message_key: key } : {}),
      });
    }
    if (error.validation) {
      return reply.status(400).send({ error: 'validation_failed', message: error.message, field: error.validationContext ?? 'body' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: 'rate_limited', message: 'Too many requests, please slow down' });
    }
    if (status === 413) {
      return reply.status(413).send({ error: 'payload_too_large', message: 'The request is too large' });
    }
    if (status >= 400 && status < 500) {
      const field = error.code?.startsWith('FST_ERR_CTP_') ? 'body' : undefined;
      // Fastify's own messages say what is wrong and nothing of us; another library's might say anything.
      const message = error.code?.startsWith('FST_') ? error.message : 'The request is not valid';
      return reply.status(status).send({ error: 'bad_request', message, ...(field ? { field } : {}) });
    }
    // Last line of defence: a value the schemas let through that the database cannot take (class 22, data
    // exception: 22021 a NUL byte, 22003 a number out of range, 22P02 a malformed number) is the request's
    // fault, not ours. Logged, because it means a schema is missing a rule.
    const state = sqlState(error);
    if (state?.startsWith('22')) {
      request.log.warn({ err: error, sqlState: state }, 'a request value the database refused passed validation');
      return reply.status(400).send({ error: 'validation_failed', message: 'A value in the request cannot be stored' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'internal_error', message: GENERIC_ERROR });
  });
}
