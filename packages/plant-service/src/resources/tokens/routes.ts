/** Personal API token routes; the rules are in service.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { needsAuth } from '../../http/needs-auth.js';
import { Deleted, errors, NoQuery, sessionSecurity } from '../../http/route-schemas.js';
import { CreatedTokenSchema, CreateTokenBody, TokenList, TokenListQuery, TokenParams } from './schemas.js';
import type { tokenService } from './service.js';

const tags = ['tokens'];

export const tokenRoutes = (service: ReturnType<typeof tokenService>): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post(
      '/',
      {
        onRequest: app.auth.session,
        schema: {
          operationId: 'createToken',
          tags,
          summary: 'Create a personal API token',
          description:
            'The answer holds the secret (`token`), shown this once; only its hash is kept. Send it as ' +
            '`Authorization: Bearer <token>`: it acts with your roles as they are at each request. ' +
            'Needs the session cookie (a token cannot create tokens: 403).',
          security: sessionSecurity,
          querystring: NoQuery,
          body: CreateTokenBody,
          response: { 200: CreatedTokenSchema, ...errors(400, 401, 403, 413, 415) },
        },
      },
      async (request) => service.create(request.user!, request.authMethod, request.body),
    );

    app.get(
      '/',
      {
        onRequest: app.auth.session,
        schema: {
          operationId: 'listTokens',
          tags,
          summary: 'List API tokens',
          description:
            "Your tokens (with `all=true`, an administrator sees everyone's), newest first. Never the secret.",
          security: sessionSecurity,
          querystring: TokenListQuery,
          response: { 200: TokenList, ...errors(400, 401, 403) },
        },
      },
      async (request) => service.list(request.user!, request.query.all ?? false),
    );

    app.delete(
      '/:id',
      {
        onRequest: app.auth.session,
        schema: {
          operationId: 'revokeToken',
          tags,
          summary: 'Revoke an API token',
          description:
            "Deletes the token: its next use is a 401. Your own tokens; an administrator may revoke anyone's. " +
            "Someone else's token is a 404 for a non-administrator.",
          security: sessionSecurity,
          params: TokenParams,
          querystring: NoQuery,
          response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => service.revoke(request.user!, request.params.id),
    );
  });
