import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyTypeProviderDefault } from 'fastify';
import { errors } from '../../http/route-schemas.js';
import { JSON_CONTENT_TYPE } from '../../lib/json-text.js';
import { Ref, RefParams } from '../../schema/types.js';
import type { GuildQuery as GuildQueryValues } from './schemas.js';
import { GuildCheckBodySchema, GuildCheckSchema, GuildQuery, GuildSchema } from './schemas.js';
import type { guildService } from './service.js';

const tags = ['guilds'];

export const guildRoutes =
  (service: ReturnType<typeof guildService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    // The guild is answered as JSON text (see the service), which the TypeBox provider's reply type
    // does not admit; the default provider's does, and the types of the request are named here.
    app
      .withTypeProvider<FastifyTypeProviderDefault>()
      .get<{ Params: { ref: string }; Querystring: GuildQueryValues }>(
        '/species/:ref/guild',
        {
          config: { cache: true },
          schema: {
            tags: ['species', ...tags],
            operationId: 'getSpeciesGuild',
            summary: 'Guild candidates around a species',
            description:
              'Candidates by guild function and by layer, best first, `limit` per group; antagonists of the ' +
              'species are never candidates and are listed under `avoid`. Rules: "Guilds" in the API description.',
            params: RefParams,
            querystring: GuildQuery,
            response: { 200: Ref(GuildSchema), ...errors(400, 404) },
          },
        },
        (request, reply) => {
          reply.type(JSON_CONTENT_TYPE);
          return service.guild(request.params.ref, request.query);
        },
      );

    app.post(
      '/guilds/check',
      {
        // Public and read-only: it changes no data, needs no session and is not a rate-limited write.
        config: { readOnly: true },
        schema: {
          tags,
          operationId: 'checkGuild',
          summary: 'Check a set of species as a guild',
          description:
            'Conflicts and synergies inside the set, the layers and functions it covers and lacks, and, with ' +
            '`hardiness_zone`, the members not hardy there. An unknown ref is a 400 naming its position ' +
            '(`species[3]`, counting from 0); a species given twice counts once. Public: no session needed.',
          body: GuildCheckBodySchema,
          response: { 200: Ref(GuildCheckSchema), ...errors(400, 413, 415) },
        },
      },
      (request) => service.check(request.body),
    );
  };
