/**
 * The error catalogue is shared with the NPC plugin (@plants/common/errors): each error has a stable
 * `code` and client-safe `details`; the one handler (http/error-handler.ts) maps the code to a status
 * and answers `{ error, ...details }`. Branch on the class or `code`, never on the message.
 */
export {
  AppError,
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
} from '@plants/common/errors';

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
