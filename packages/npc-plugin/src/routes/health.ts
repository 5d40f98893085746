import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Npc } from '../core/npc.js';
import { ErrorBody, HealthReply } from './schemas.js';

/** Public liveness for orchestrators and load balancers: no credentials, nothing secret in it. */
export const healthRoute =
  (npc: Npc): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness and game connection (public)',
          description:
            'Answers 200 while the process runs, whether or not the NPC is in the game: `connected` and `state` say ' +
            'that. Needs no credentials and takes no parameters.',
          tags: ['operations'],
          security: [],
          querystring: Type.Object({}, { additionalProperties: false }),
          response: { 200: HealthReply, 400: { ...ErrorBody, description: 'A query parameter was sent' } },
        },
      },
      async () => npc.health(),
    );
  };
