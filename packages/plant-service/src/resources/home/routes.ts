import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** `/` is where login and logout land: send people on to the interactive docs. */
export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/api/docs', 302));
};
