/**
 * The error catalogue: every error a service or repository throws on purpose, each with a
 * stable `code` and HTTP status. One handler (http/error-handler.ts) turns them into `{ error }`.
 * Branch on the class or `code`, never on the message.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra, client-safe fields merged into the error body (e.g. `field`, `count`). */
  readonly details: Record<string, unknown>;

  constructor(message: string, details: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }
}

export class BadRequest extends AppError {
  readonly status = 400;
  readonly code = 'BAD_REQUEST';
}

export class Unauthorized extends AppError {
  readonly status = 401;
  readonly code = 'UNAUTHORIZED';
}

export class Forbidden extends AppError {
  readonly status = 403;
  readonly code = 'FORBIDDEN';
}

export class NotFound extends AppError {
  readonly status = 404;
  readonly code = 'NOT_FOUND';
}

export class Conflict extends AppError {
  readonly status = 409;
  readonly code = 'CONFLICT';
}

export class PayloadTooLarge extends AppError {
  readonly status = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class UnsupportedMediaType extends AppError {
  readonly status = 415;
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

export class TooManyRequests extends AppError {
  readonly status = 429;
  readonly code = 'TOO_MANY_REQUESTS';
}

export class ServiceUnavailable extends AppError {
  readonly status = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
}

/**
 * A fatal start-up problem: reported as one log line naming the cause and the environment
 * variable to fix (`variable`), never as a stack. Not an HTTP error.
 */
export class StartupError extends Error {
  readonly code = 'STARTUP_FAILED';
  constructor(
    message: string,
    readonly variable: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'StartupError';
  }
}
