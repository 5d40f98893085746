/**
 * The error catalogue, shared with the plant service (@plants/common). The core throws these with a
 * stable `code` and client-safe `details` (`field`, `state`) and knows nothing of HTTP; the web
 * server's error handler maps the code to a status and answers `{ "error": "...", ...details }`.
 * Never branch on message text: branch on the class or `code`.
 */
export { ConfigError } from '@plants/common/env';
export {
  AppError,
  BadRequest,
  Conflict,
  Forbidden,
  invalidField,
  NotFound,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
} from '@plants/common/errors';
