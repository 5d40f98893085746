import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EMOTES } from '../core/emotes.js';
import type { Npc } from '../core/npc.js';
import { commonErrors, EmoteBody, EmoteReply, ErrorBody } from './schemas.js';
import { emoteTarget } from './targets.js';

export const emoteRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/emote',
      {
        config: { permission },
        schema: {
          operationId: 'playEmote',
          summary: 'Play an emote',
          description:
            `One of ${EMOTES.join(', ')}. point_at needs a target (x/y/z, player or entity_id). Answers when the ` +
            'emote is over (at most 5 s) with its goal record. Pre-empts a move, follow or talking in progress.' +
            " Like every operator command, it holds the NPC against players' tool calls for NPC_OPERATOR_HOLD_MS (60 s).",
          tags: ['npc'],
          security: [{ basic: [] }],
          body: EmoteBody,
          response: {
            200: EmoteReply,
            400: ErrorBody,
            ...commonErrors,
            404: { ...ErrorBody, description: 'The target is not in view' },
            409: ErrorBody,
          },
        },
      },
      async (request) => {
        const { name, target } = request.body;
        return npc.emote({ name, target: emoteTarget(name, target) });
      },
    );
  };
