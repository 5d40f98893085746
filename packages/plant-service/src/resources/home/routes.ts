import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** `/` is where login and logout land: send people on to the interactive docs. */
export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getHome',
        tags: ['documentation'],
        summary: 'Where login and logout land',
        description: 'Redirects to the interactive documentation, /api/docs.',
        response: { 302: { description: 'To /api/docs.', type: 'null' } },
      },
    },
    async (_request, reply) => {
      await reply.redirect('/api/docs', 302);
    },
  );
};
