import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { commonErrors, ErrorBody, SpawnBody, SpawnReply } from './schemas.js';
import { spawnPosition } from './targets.js';

export const spawnRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    // An empty POST (no body, no content type) means "just join".
    app.addHook('preValidation', async (request) => {
      request.body ??= {};
    });
    app.post(
      '/spawn',
      {
        config: { permission },
        schema: {
          operationId: 'spawnNpc',
          summary: 'Join the world (or respawn); optionally go to x/y/z',
          description:
            'Joins the game server when the NPC is offline (waits up to NPC_CONNECT_TIMEOUT_MS), respawns it when dead, ' +
            'else does nothing. With x, y and z it then asks the server to teleport it (/tp; needs operator rights) and, ' +
            'when no teleport shows within 3 s, walks there instead (action "walking", goal in /status).',
          tags: ['npc'],
          security: [{ basic: [] }],
          body: SpawnBody,
          response: {
            200: SpawnReply,
            400: ErrorBody,
            ...commonErrors,
            409: ErrorBody,
            503: {
              ...ErrorBody,
              description:
                'The game server could not be joined within NPC_CONNECT_TIMEOUT_MS, or too many logins are waiting for their password check (Retry-After)',
            },
          },
        },
      },
      async (request) => npc.spawn(spawnPosition(request.body)),
    );
  };
