/**
 * Request ids: a client's (or proxy's) `X-Request-Id` is kept when it is 1–128 characters of
 * letters, digits and `-_.:`, so one id can follow a request across services; anything else is
 * replaced by a random UUID. The id is echoed in the `X-Request-Id` response header and carried,
 * as `reqId`, by every log line of the request (Fastify's request logger).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the client's id when it is safe, else a random one. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
