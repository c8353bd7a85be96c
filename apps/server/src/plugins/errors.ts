import { translate } from '@amora/i18n';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/errors';

/** zod messages that are catalogue keys ('auth.errors.invalidEmail') are sent as English text plus the key. */
const CATALOGUE_KEY = /^[a-z]+(\.[a-zA-Z]+)+$/;

export const GENERIC_ERROR = 'An error occurred, please try again later';

/** Every error leaves as `{ error, message, ...flags }`; internals are logged, never sent. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
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
      const field = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'body' : undefined;
      return reply.status(status).send({ error: 'bad_request', message: error.message, ...(field ? { field } : {}) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'internal_error', message: GENERIC_ERROR });
  });
}
