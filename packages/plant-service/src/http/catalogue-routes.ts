/**
 * The five routes every catalogue resource has (families, species, cultivars, suppliers):
 * list, get by ref, create, update, delete. Each resource passes its schemas and service;
 * the route shapes, auth and documented statuses are the same for all.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyTypeProviderDefault } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { JSON_CONTENT_TYPE, type JsonText } from '../lib/json-text.js';
import { Ref, RefParams } from '../schema/types.js';
import { needsAuth } from './needs-auth.js';
import { Deleted, errors, sessionSecurity, writeErrors } from './route-schemas.js';

/**
 * Lists and reads by ref answer the JSON text the database keeps for each record (see rowJson);
 * writes answer the record they wrote.
 */
export interface CatalogueService<R, L, Q, C, U> {
  list(query: Q): Promise<JsonText<L>>;
  get(ref: string): Promise<JsonText<R>>;
  create(input: C): Promise<R>;
  update(ref: string, input: U): Promise<R>;
  remove(ref: string): Promise<void>;
}

export interface CatalogueRoutesOptions<
  RS extends TSchema,
  LS extends TSchema,
  QS extends TObject,
  CS extends TObject,
  US extends TObject,
> {
  /** Singular noun for summaries, e.g. "family". */
  noun: string;
  tag: string;
  record: RS;
  /** The list response (a page envelope, or an array for suppliers). */
  list: LS;
  listQuery: QS;
  create: CS;
  update: US;
  docs: { list: string; create: string; delete: string };
  service: CatalogueService<Static<RS>, Static<LS>, Static<QS>, Static<CS>, Static<US>>;
}

export function catalogueRoutes<
  RS extends TSchema,
  LS extends TSchema,
  QS extends TObject,
  CS extends TObject,
  US extends TObject,
>(o: CatalogueRoutesOptions<RS, LS, QS, CS, US>): FastifyPluginAsyncTypebox {
  const tags = [o.tag];
  // operationIds: listFamilies, getFamily, createFamily, ... (from the tag and the noun).
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const Noun = capital(o.tag);
  const Noun1 = capital(o.noun);
  type Params = { ref: string };
  const record = Ref(o.record);
  return needsAuth(async (typed) => {
    // The TypeBox provider cannot resolve generic schemas, so these routes use the default
    // provider; CatalogueService's signature ties each handler to Static<schema> instead.
    const app = typed.withTypeProvider<FastifyTypeProviderDefault>();
    app.get(
      '/',
      {
        config: { cache: true },
        schema: {
          operationId: `list${Noun}`,
          tags,
          summary: `List ${o.tag}`,
          description: o.docs.list,
          querystring: o.listQuery,
          response: { 200: Ref(o.list), ...errors(400) },
        },
      },
      (request, reply) => {
        reply.type(JSON_CONTENT_TYPE);
        return o.service.list(request.query as Static<QS>);
      },
    );

    app.get(
      '/:ref',
      {
        config: { cache: true },
        schema: {
          operationId: `get${Noun1}`,
          tags,
          summary: `Get a ${o.noun} by slug or uuid`,
          params: RefParams,
          response: { 200: record, ...errors(400, 404) },
        },
      },
      (request, reply) => {
        reply.type(JSON_CONTENT_TYPE);
        return o.service.get((request.params as Params).ref);
      },
    );

    app.post(
      '/',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: `create${Noun1}`,
          tags,
          summary: `Create a ${o.noun}`,
          description: o.docs.create,
          security: sessionSecurity,
          body: o.create,
          response: { 200: record, ...errors(...writeErrors, 409) },
        },
      },
      (request) => o.service.create(request.body as Static<CS>),
    );

    app.put(
      '/:ref',
      {
        onRequest: app.auth.writer,
        schema: {
          operationId: `update${Noun1}`,
          tags,
          summary: `Update a ${o.noun}`,
          description:
            'Omitted fields stay unchanged; a field sent as null is cleared; required fields cannot be null. ' +
            'The slug never changes. `updated_at` changes on every update.',
          security: sessionSecurity,
          params: RefParams,
          body: o.update,
          response: { 200: record, ...errors(...writeErrors, 404, 409) },
        },
      },
      (request) => o.service.update((request.params as Params).ref, request.body as Static<US>),
    );

    app.delete(
      '/:ref',
      {
        onRequest: app.auth.admin,
        schema: {
          operationId: `delete${Noun1}`,
          tags,
          summary: `Delete a ${o.noun} (admin)`,
          description: o.docs.delete,
          security: sessionSecurity,
          params: RefParams,
          response: { 200: Deleted, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        await o.service.remove((request.params as Params).ref);
        return { deleted: true };
      },
    );
  });
}
