/**
 * The one error catalogue (STYLE habit 4). Services throw these; the web server's error handler turns
 * them into `{ "error": "..." }` with the status below. Never branch on message text: branch on `code`.
 */
export abstract class AppError extends Error {
  abstract readonly code: string;
  abstract readonly statusCode: number;
  /** Extra fields that go into the response body next to `error`. */
  body(): Record<string, unknown> {
    return {};
  }
}

/** 400: a client sent something invalid; `field` names it. */
export class BadRequestError extends AppError {
  readonly code = 'bad_request';
  readonly statusCode = 400;
  constructor(
    readonly field: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(`${field}: ${message}`);
  }
  override body(): Record<string, unknown> {
    return { field: this.field, ...this.extra };
  }
}

/** 401: no or wrong credentials. The web server adds `WWW-Authenticate: Basic`. */
export class UnauthorizedError extends AppError {
  readonly code = 'unauthorized';
  readonly statusCode = 401;
}

/** 403: valid credentials without the route's permission node. */
export class ForbiddenError extends AppError {
  readonly code = 'forbidden';
  readonly statusCode = 403;
}

/** 404: a named player or entity is not in view. */
export class NotFoundError extends AppError {
  readonly code = 'not_found';
  readonly statusCode = 404;
}

/** 409: the NPC cannot do this in its current state. */
export class ConflictError extends AppError {
  readonly code = 'conflict';
  readonly statusCode = 409;
  constructor(
    message: string,
    readonly state: string,
  ) {
    super(message);
  }
  override body(): Record<string, unknown> {
    return { state: this.state };
  }
}

/** 429: too many failed logins from one address. */
export class TooManyRequestsError extends AppError {
  readonly code = 'too_many_requests';
  readonly statusCode = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** 503: the game server could not be reached in time for a request that needs it. */
export class UnavailableError extends AppError {
  readonly code = 'unavailable';
  readonly statusCode = 503;
}

/** Start-up configuration problems; `problems` has one line per bad value. */
export class StartupError extends Error {
  constructor(
    readonly problems: readonly string[],
    what: string,
  ) {
    super(`${what}:\n  - ${problems.join('\n  - ')}`);
  }
}
