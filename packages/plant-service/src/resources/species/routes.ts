import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { catalogueRoutes } from '../../http/catalogue-routes.js';
import { errors } from '../../http/route-schemas.js';
import { CompanionRelationshipSchema, SpeciesCompanionsQuery } from '../../schema/companions.js';
import {
  CreateSpeciesSchema,
  SpeciesListQuery,
  SpeciesPageSchema,
  SpeciesSchema,
  UpdateSpeciesSchema,
} from '../../schema/species.js';
import { Ref, RefParams } from '../../schema/types.js';
import type { speciesService } from './service.js';

export const speciesRoutes =
  (service: ReturnType<typeof speciesService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(
      catalogueRoutes({
        noun: 'species',
        tag: 'species',
        record: SpeciesSchema,
        list: SpeciesPageSchema,
        listQuery: SpeciesListQuery,
        create: CreateSpeciesSchema,
        update: UpdateSpeciesSchema,
        service,
        docs: {
          list:
            'Paginated; ordered by scientific name, then id; with `search`, by relevance first. ' +
            'Filters combine with AND; an unknown `family` slug gives an empty page.',
          create:
            'The slug is derived from `name_scientific` and never changes. An unknown `family_id` is a 400. ' +
            'Soil analytics, water requirement, waterlogging tolerance and `primary_image_key` are not part ' +
            'of the payload: they come from bulk import and the image endpoints.',
          delete:
            'Refused with 409 (naming how many) while cultivars belong to the species. ' +
            "Deleting a species removes its companion relations and clears cultivars' rootstock references.",
        },
      }),
    );

    app.get(
      '/:ref/companions',
      {
        config: { cache: true },
        schema: {
          operationId: 'listSpeciesCompanions',
          tags: ['species', 'companions'],
          summary: 'Companion relations of a species',
          description:
            'Relations where the species is either side, oldest first. `relationship` and `evidence` ' +
            'narrow the list (AND); relations whose evidence is not assessed match no `evidence` filter.',
          params: RefParams,
          querystring: SpeciesCompanionsQuery,
          response: { 200: Type.Array(Ref(CompanionRelationshipSchema)), ...errors(400, 404) },
        },
      },
      (request) => service.companions(request.params.ref, request.query),
    );
  };
