/**
 * Every write is attributed in the change log: the authenticated user (and the API token when one
 * was used) and the reason the writer gave in the `X-Change-Reason` header. The header is
 * documented on every data write; its value is percent-encoded UTF-8 (a header carries no other
 * characters safely), at most 500 characters once decoded, without control characters.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type Actor, MAX_REASON_LENGTH, withActor } from '../db/actor.js';
import { BadRequest } from '../errors.js';
import { WRITE_METHODS } from '../lib/write-methods.js';

export const CHANGE_REASON_HEADER = 'x-change-reason';

declare module 'fastify' {
  interface FastifyRequest {
    /** The decoded `X-Change-Reason` of a write, if sent. */
    changeReason: string | undefined;
  }
}

/** The reason a writer gave, decoded; a 400 naming the header when it is not acceptable. */
export function parseChangeReason(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value))
    throw invalidField(CHANGE_REASON_HEADER, 'send the header once', { in: 'header' });
  let reason: string;
  try {
    reason = decodeURIComponent(value);
  } catch {
    throw invalidField(CHANGE_REASON_HEADER, 'not valid percent-encoded UTF-8', { in: 'header' });
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(reason)) {
    throw invalidField(CHANGE_REASON_HEADER, 'must not contain control characters', { in: 'header' });
  }
  if ([...reason].length > MAX_REASON_LENGTH) {
    throw invalidField(CHANGE_REASON_HEADER, `at most ${MAX_REASON_LENGTH} characters`, { in: 'header' });
  }
  const trimmed = reason.trim();
  return trimmed === '' ? undefined : trimmed;
}

const invalidField = (field: string, problem: string, details: Record<string, unknown>) =>
  new BadRequest(`${field}: ${problem}`, { field, ...details });

const isDataWrite = (route: RouteOptions) =>
  route.url.startsWith('/api/v1/') &&
  !route.url.startsWith('/api/v1/tokens') &&
  [route.method].flat().some((m) => WRITE_METHODS.has(m));

/** The header, documented on the data writes' operations. */
function documentReason(route: RouteOptions): void {
  if (!isDataWrite(route) || !route.schema) return;
  const headers = (route.schema.headers as { properties?: Record<string, unknown> } | undefined) ?? {};
  route.schema = {
    ...route.schema,
    headers: {
      type: 'object',
      ...headers,
      properties: {
        ...headers.properties,
        [CHANGE_REASON_HEADER]: {
          type: 'string',
          description:
            'Why the change is made, recorded with it in the change log and shown in the history. ' +
            `Percent-encoded UTF-8; at most ${MAX_REASON_LENGTH} characters once decoded, no control characters.`,
        },
      },
    },
  };
}

function actorOf(request: FastifyRequest): Actor | undefined {
  const user = request.user;
  if (!user) return undefined;
  return {
    kind: request.authMethod === 'token' ? 'token' : 'user',
    userId: user.id,
    ...(request.tokenId ? { tokenId: request.tokenId } : {}),
    ...(request.changeReason ? { reason: request.changeReason } : {}),
  };
}

export const changeAttribution = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('changeReason', undefined);
    app.addHook('onRoute', documentReason);
    // The rest of the request (the route's own guards, then its handler) runs in this context;
    // the user is read when a transaction begins, after the guards found them.
    app.addHook('preHandler', (request, _reply, done) => {
      if (!WRITE_METHODS.has(request.method)) return done();
      try {
        request.changeReason = parseChangeReason(request.headers[CHANGE_REASON_HEADER]);
      } catch (error) {
        return done(error as Error);
      }
      withActor(() => actorOf(request), done);
    });
  },
  { name: 'change-attribution' },
);
