/** User administration routes (administrators only); the rules are in service.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { needsAuth } from '../../http/needs-auth.js';
import { errors, NoQuery, sessionSecurity } from '../../http/route-schemas.js';
import { DisabledUser, UserList, UserParams, UserSchema } from './schemas.js';
import type { userService } from './service.js';

const tags = ['users'];

export const userRoutes = (service: ReturnType<typeof userService>): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/',
      {
        preHandler: app.auth.admin,
        schema: {
          operationId: 'listUsers',
          tags,
          summary: 'List users',
          description:
            'Everyone who has signed in, by email, with their roles and whether they are disabled. Administrators only.',
          security: sessionSecurity,
          querystring: NoQuery,
          response: { 200: UserList, ...errors(400, 401, 403) },
        },
      },
      async () => service.list(),
    );

    app.post(
      '/:id/disable',
      {
        preHandler: app.auth.admin,
        schema: {
          operationId: 'disableUser',
          tags,
          summary: 'Disable a user',
          description:
            'At once: ends all their sessions and revokes all their API tokens (both answer 401 from then ' +
            'on), and refuses their sign-in (403) until enabled again. Records when and by whom (`disabled_at`, ' +
            '`disabled_by`; a user already disabled keeps the first). Administrators only; not your own ' +
            'account (409). No body.',
          security: sessionSecurity,
          params: UserParams,
          querystring: NoQuery,
          response: { 200: DisabledUser, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => service.disable(request.user!, request.params.id),
    );

    app.post(
      '/:id/enable',
      {
        preHandler: app.auth.admin,
        schema: {
          operationId: 'enableUser',
          tags,
          summary: 'Enable a user',
          description:
            'Lets a disabled user sign in again. Their old sessions and tokens stay gone. Administrators only. No body.',
          security: sessionSecurity,
          params: UserParams,
          querystring: NoQuery,
          response: { 200: UserSchema, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => service.enable(request.user!, request.params.id),
    );
  });
