import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { commonErrors, ErrorBody, MoveBody, MoveReply } from './schemas.js';
import { moveCommand } from './targets.js';

export const moveRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/move',
      {
        config: { permission },
        schema: {
          operationId: 'moveNpc',
          summary: 'Walk to x/y/z, follow a player, or stop',
          description:
            'Answers at once with the accepted goal; progress and outcome show in GET /status. A new move pre-empts the ' +
            'running move, follow, emote or talking. Targets further than NPC_MAX_MOVE_DISTANCE (128) blocks are refused.' +
            " Like every operator command, it holds the NPC against players' tool calls for NPC_OPERATOR_HOLD_MS (60 s). A follow from here has no leash.",
          tags: ['npc'],
          security: [{ basic: [] }],
          body: MoveBody,
          response: {
            200: MoveReply,
            400: ErrorBody,
            ...commonErrors,
            404: { ...ErrorBody, description: 'The player to follow is not in view' },
            409: { ...ErrorBody, description: 'The NPC is not in the world' },
          },
        },
      },
      async (request) => npc.move(moveCommand(request.body)),
    );
  };
