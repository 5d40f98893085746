import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { needsAuth } from '../../http/needs-auth.js';
import { Deleted, errors, sessionSecurity, writeErrors } from '../../http/route-schemas.js';
import {
  CompanionIdParams,
  CompanionListQuery,
  CompanionRelationshipSchema,
  CompanionWithNamesSchema,
  CreateCompanionSchema,
} from '../../schema/companions.js';
import { Ref } from '../../schema/types.js';
import type { companionService } from './service.js';

const tags = ['companions'];

export const companionRoutes = (service: ReturnType<typeof companionService>): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    app.get(
      '/',
      {
        config: { cache: true },
        schema: {
          operationId: 'listCompanions',
          tags,
          summary: 'All companion relations, with species names',
          description:
            'Not paginated; ordered by the scientific names of species A, then B. ' +
            'Filters combine with AND: `species` matches the species on either side of the pair; ' +
            '`evidence` matches only relations with that level (relations not assessed are never matched).',
          querystring: CompanionListQuery,
          response: { 200: Type.Array(Ref(CompanionWithNamesSchema)), ...errors(400) },
        },
      },
      (request) => service.list(request.query),
    );

    app.post(
      '/',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: 'createCompanion',
          tags,
          summary: 'Create a companion relation',
          description:
            'A pair is stored once, in the order given; the same pair in either order is a 409. ' +
            'A species paired with itself, or an unknown species id, is a 400.',
          security: sessionSecurity,
          body: CreateCompanionSchema,
          response: { 200: Ref(CompanionRelationshipSchema), ...errors(...writeErrors, 409) },
        },
      },
      (request) => service.create(request.body),
    );

    app.delete(
      '/:id',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: 'deleteCompanion',
          tags,
          summary: 'Delete a companion relation',
          security: sessionSecurity,
          params: CompanionIdParams,
          response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await service.remove(request.params.id);
        return { deleted: true };
      },
    );
  });
