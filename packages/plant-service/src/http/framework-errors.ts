/**
 * What Fastify's router answers before any route is chosen (a path parameter over the router's
 * length limit, a malformed percent-encoding in the path), in the service's own `{error}` shape
 * instead of Fastify's default body, which echoes the whole path back.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions, RouteOptions } from 'fastify';
import { ErrorBody, Ref } from '../schema/types.js';

/** The router's limit on one path parameter (`maxParamLength`); longer is a 414. */
export const MAX_PARAM_LENGTH = 500;

export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  _request: FastifyRequest,
  reply: FastifyReply,
) => {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .code(414)
      .send({ error: `path: a path parameter is longer than ${MAX_PARAM_LENGTH} characters` });
  }
  return reply.code(400).send({ error: 'path: not a valid URL path (malformed percent-encoding)' });
};

/** Routes with path parameters document the 414 the router answers for an over-long one. */
export function documentLongPaths(route: RouteOptions): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (!response || !route.url.includes(':') || '414' in response) return;
  route.schema = {
    ...route.schema,
    response: {
      ...response,
      414: {
        ...Ref(ErrorBody),
        description: `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`,
      },
    },
  };
}
