/**
 * The error catalogue both packages throw from their services and cores. An error carries a stable
 * `code`, a message meant for the client, and `details`: extra client-safe fields (`field`, `state`,
 * ...). It knows nothing of HTTP: the web edge maps the code to a status (http-errors.ts), so a core
 * that runs without a web server throws the same errors. Branch on the class or `code`, never on
 * the message.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE';

export interface AppErrorOptions extends ErrorOptions {
  /** When the same request may succeed again; a hint for the caller, not part of `details`. */
  retryAfterSeconds?: number;
}

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
  /** Extra, client-safe fields that travel with the message (e.g. `field`, `state`). */
  readonly details: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, details: Record<string, unknown> = {}, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The input is invalid; `details.field` names the field when there is one. */
export class BadRequest extends AppError {
  readonly code = 'BAD_REQUEST';
}

/** No or wrong credentials. */
export class Unauthorized extends AppError {
  readonly code = 'UNAUTHORIZED';
}

/** The caller is known but may not do this. */
export class Forbidden extends AppError {
  readonly code = 'FORBIDDEN';
}

export class NotFound extends AppError {
  readonly code = 'NOT_FOUND';
}

/** The request clashes with the current state (a taken name, an action the current state refuses). */
export class Conflict extends AppError {
  readonly code = 'CONFLICT';
}

/** What was asked for existed once and is no longer kept (e.g. pruned history). */
export class Gone extends AppError {
  readonly code = 'GONE';
}

export class PayloadTooLarge extends AppError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class UnsupportedMediaType extends AppError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

export class TooManyRequests extends AppError {
  readonly code = 'TOO_MANY_REQUESTS';
}

/** Something this request needs (a database, a game server, a provider) cannot be used right now. */
export class ServiceUnavailable extends AppError {
  readonly code = 'SERVICE_UNAVAILABLE';
}

/** A BadRequest about one field: the message starts with the field's name, and `details.field` names it. */
export function invalidField(
  field: string,
  problem: string,
  details: Record<string, unknown> = {},
): BadRequest {
  return new BadRequest(`${field}: ${problem}`, { field, ...details });
}
