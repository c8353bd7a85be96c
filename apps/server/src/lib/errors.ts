/** An error a route may throw on purpose: it becomes `{ error, message, ...extra }` with this status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
export const badRequest = (field: string, message: string) => new HttpError(400, 'validation_failed', message, { field });
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'rate_limited') =>
  new HttpError(429, code, message, { retry_after_seconds: retryAfterSeconds });
export const authenticationRequired = () =>
  new HttpError(403, 'authentication_required', 'Login required', { authentication_required: true });
