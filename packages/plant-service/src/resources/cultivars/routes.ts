import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { catalogueRoutes } from '../../http/catalogue-routes.js';
import { needsAuth } from '../../http/needs-auth.js';
import { Deleted, errors, sessionSecurity, writeErrors } from '../../http/route-schemas.js';
import {
  CreateCultivarSchema,
  CreateCultivarSupplierSchema,
  CultivarListQuery,
  CultivarPageSchema,
  CultivarSchema,
  CultivarSupplierSchema,
  LinkParams,
  UpdateCultivarSchema,
} from '../../schema/cultivars.js';
import { Ref, RefParams } from '../../schema/types.js';
import type { cultivarService } from './service.js';

const tags = ['cultivars'];

export const cultivarRoutes = (service: ReturnType<typeof cultivarService>): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    await app.register(
      catalogueRoutes({
        noun: 'cultivar',
        tag: 'cultivars',
        record: CultivarSchema,
        list: CultivarPageSchema,
        listQuery: CultivarListQuery,
        create: CreateCultivarSchema,
        update: UpdateCultivarSchema,
        service,
        docs: {
          list:
            'Paginated; ordered by name, then id; with `search`, by relevance first. ' +
            'An unknown `species` slug gives an empty page.',
          create:
            'The slug is the species slug plus the name, and never changes. An unknown `species_id` is a 400. ' +
            'Fields outside the CreateCultivar payload come from bulk import only.',
          delete: 'Deleting a cultivar removes its supplier links (and, once images exist, its images).',
        },
      }),
    );

    app.get(
      '/:ref/suppliers',
      {
        config: { cache: true },
        schema: {
          operationId: 'listCultivarSuppliers',
          tags,
          summary: 'Suppliers offering a cultivar',
          params: RefParams,
          response: { 200: Type.Array(Ref(CultivarSupplierSchema)), ...errors(400, 404) },
        },
      },
      (request) => service.suppliers(request.params.ref),
    );

    app.post(
      '/:ref/suppliers',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: 'linkCultivarSupplier',
          tags,
          summary: 'Link a supplier to a cultivar',
          description:
            'One link per cultivar and supplier: a second one is a 409. An unknown `supplier_id` is a 400.',
          security: sessionSecurity,
          params: RefParams,
          body: CreateCultivarSupplierSchema,
          response: { 200: Ref(CultivarSupplierSchema), ...errors(...writeErrors, 404, 409) },
        },
      },
      (request) => service.addSupplier(request.params.ref, request.body),
    );

    app.delete(
      '/:cid/suppliers/:sid',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: 'unlinkCultivarSupplier',
          tags,
          summary: 'Unlink a supplier from a cultivar',
          description: 'Both path segments are uuids. 404 when there is no such link.',
          security: sessionSecurity,
          params: LinkParams,
          response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await service.removeSupplier(request.params.cid, request.params.sid);
        return { deleted: true };
      },
    );
  });
