/**
 * The one place errors become HTTP responses: `{ error: "..." }` plus optional client-safe
 * details. Catalogue errors answer the status of their code; constraint violations and an unreachable
 * database become catalogue errors (db/constraints.ts); Fastify's own client errors (bad JSON, body too
 * large, wrong content type) keep theirs; anything else is a 500 that logs the cause and never
 * shows it.
 */
import { errorResponse } from '@plants/common/http-errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseError } from '../db/constraints.js';
import { AppError } from '../errors.js';
import { JSON_BODY_LIMIT } from './json-body.js';
import { describeValidationError } from './validation.js';

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A path with no route is a 404 whatever its body: the not-found route still parses and checks
    // the body, and a malformed one must not turn an unknown URL into a 400.
    if (request.is404) return notFound(request, reply);
    const known = error instanceof AppError ? error : databaseError(error);
    if (known) {
      const { status, retryAfter, body } = errorResponse(known);
      if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
      return reply.code(status).send(body);
    }
    if (error.validation) {
      const {
        message,
        field,
        in: where,
      } = describeValidationError(error.validation as never, error.validationContext);
      return reply.code(400).send({ error: message, ...(field ? { field } : {}), in: where });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: clientMessage(error) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'internal server error' });
  });

  app.setNotFoundHandler(notFound);
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ error: `no route for ${request.method} ${request.url.split('?')[0]}` });
}

/** Fastify's client-error messages are safe to show, with a few made plainer. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `request body is too large: the limit is ${JSON_BODY_LIMIT} bytes (1 MiB)`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type: send application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'body: must not be empty when content-type is application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body: is not valid JSON';
    default:
      return error.message;
  }
}
