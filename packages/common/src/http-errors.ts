/**
 * The HTTP edge of the error catalogue: the status each code answers with and the body every
 * error becomes, `{ "error": "<message>", ...details }`. Only web servers import this module.
 */
import type { AppError, ErrorCode } from './errors.js';

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
});

export interface ErrorResponse {
  status: number;
  /** Value of the Retry-After header (seconds), when the error says when to try again. */
  retryAfter: string | undefined;
  body: { error: string } & Record<string, unknown>;
}

/** What an error of the catalogue answers: its status, Retry-After when known, and the body. */
export function errorResponse(error: AppError): ErrorResponse {
  return {
    status: HTTP_STATUS[error.code],
    retryAfter: error.retryAfterSeconds === undefined ? undefined : String(error.retryAfterSeconds),
    body: { error: error.message, ...error.details },
  };
}
