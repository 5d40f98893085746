/**
 * Route plugins whose handlers use `app.auth` declare it: registering one before the auth guard
 * fails at start with a message naming the missing decorator, not at the first request.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { AUTH_GUARD } from '../auth/guard.js';

export function needsAuth(plugin: FastifyPluginAsyncTypebox): FastifyPluginAsyncTypebox {
  // Encapsulated: the routes stay under the prefix they are registered with.
  return fp(plugin, { decorators: { fastify: ['auth'] }, dependencies: [AUTH_GUARD], encapsulate: true });
}
