import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyTypeProviderDefault } from 'fastify';
import { Type } from 'typebox';
import { noneMatch } from '../../http/conditional.js';
import { NoQuery } from '../../http/route-schemas.js';
import { ExportHeaders, ExportLineSchema } from './schemas.js';
import type { ExportService } from './service.js';

const ETAG_HEADER = {
  etag: {
    type: 'string',
    description: 'Version of the data; send it back in If-None-Match.',
  },
};

export const exportRoutes =
  (service: ExportService): FastifyPluginAsyncTypebox =>
  async (typed) => {
    // The body is a stream; the response schema documents its lines, it does not serialize them.
    const app = typed.withTypeProvider<FastifyTypeProviderDefault>();
    app.addHook('onClose', () => service.close());

    app.get(
      '/',
      {
        schema: {
          operationId: 'exportData',
          tags: ['export'],
          summary: 'The whole database as one NDJSON dump',
          description:
            'One record per line (`application/x-ndjson`), its kind in `type`, in dependency order: family, ' +
            'species, supplier, cultivar, cultivar_supplier, companion. Records refer to each other by slug, ' +
            'never by uuid; ids, `created_at` and `updated_at` are left out, and so are fields that are null. ' +
            'Records are sorted by slug (links by cultivar and supplier slug, companions by species_a and ' +
            'species_b slug; byte order), keys are in schema order: the same data gives the same bytes. ' +
            'The dump is one consistent snapshot. `npm run plants -- import <file>` reads it back. Images ' +
            '(and `primary_image_key`) are not part of it. The ETag changes whenever any exported row is ' +
            'inserted, updated or deleted; with `If-None-Match` an unchanged dump is a 304.',
          querystring: NoQuery,
          headers: ExportHeaders,
          response: {
            200: {
              description: 'The dump, streamed.',
              headers: ETAG_HEADER,
              content: { 'application/x-ndjson': { schema: ExportLineSchema } },
            },
            304: Type.Null({ description: 'Not modified: the ETag sent in If-None-Match is current.' }),
          },
        },
      },
      async (request, reply) => {
        const version = await service.version();
        reply.header('cache-control', 'no-cache');
        const ifNoneMatch = request.headers['if-none-match'];
        if (noneMatch(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch, `"${version}"`)) {
          return reply.code(304).header('etag', `"${version}"`).send();
        }
        const dump = await service.open();
        return reply
          .header('etag', `"${dump.version}"`)
          .type('application/x-ndjson; charset=utf-8')
          .send(dump.body);
      },
    );
  };
