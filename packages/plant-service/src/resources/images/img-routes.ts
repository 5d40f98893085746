/**
 * GET and HEAD /img/{entity_type}/{entity_id}/{file}: an image's bytes with
 * Content-Type, Content-Length, a strong ETag and a year of immutable caching (keys are never
 * reused), 304 for a matching If-None-Match, 206 for a single byte range, and `?w=` for a
 * resized WebP copy. Anything that is not an existing image's key is a 404.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NotFound } from '../../errors.js';
import { decideRange, noneMatch } from '../../http/conditional.js';
import { errors } from '../../http/route-schemas.js';
import { ErrorBody, Ref } from '../../schema/types.js';
import type { ImageDelivery } from './delivery.js';
import { type ImageWidth, ImgQuery } from './schemas.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** No payload at all (not even `null`): Fastify then sends the headers alone. */
const NO_BODY = undefined as never;

const single = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header);

const ImgParams = Type.Object({
  entity_type: Type.String({ maxLength: 20, description: 'family, species or cultivar.' }),
  entity_id: Type.String({ maxLength: 40, description: 'The record’s uuid.' }),
  file: Type.String({ maxLength: 80, description: 'File name: `<image id>.<jpg|png|webp>`.' }),
});

const binary = (description: string) => ({
  description,
  content: Object.fromEntries(
    ['image/jpeg', 'image/png', 'image/webp'].map((type) => [
      type,
      { schema: { type: 'string', format: 'binary' } },
    ]),
  ),
});

export const imgRoutes =
  (delivery: ImageDelivery): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.route({
      method: ['GET', 'HEAD'],
      url: '/img/:entity_type/:entity_id/:file',
      schema: {
        operationId: 'getImageFile',
        tags: ['images'],
        summary: 'An image’s bytes',
        description:
          'The path is an image’s `store_key`. `?w=` (160, 320, 640 or 1280) serves a WebP copy of ' +
          'that width, never wider than the original, made on first request and kept. ' +
          `Cache-Control: \`${IMMUTABLE}\`. If-None-Match → 304; a single \`Range: bytes=\` → 206 ` +
          '(several ranges: the whole image; If-Range honoured); unknown key → 404. An image whose stored ' +
          'data does not decode (kept from before uploads were decoded in full) has no copies: `?w=` ' +
          'for it is a 400 naming `w`; without `w` its bytes are served as stored.',
        params: ImgParams,
        querystring: ImgQuery,
        response: {
          200: binary('The image.'),
          206: binary('The requested byte range; Content-Range says which.'),
          304: { description: 'Not modified: the ETag in If-None-Match matches.', type: 'null' },
          ...errors(400, 503),
          404: { ...Ref(ErrorBody), description: 'No image with that key.' },
          416: { ...Ref(ErrorBody), description: 'Range not satisfiable; Content-Range gives the size.' },
        },
      },
      handler: async (request, reply) => {
        const { entity_type, entity_id, file } = request.params;
        const width = request.query.w as ImageWidth | undefined;
        const located = await delivery.locate(`${entity_type}/${entity_id}/${file}`, width);
        if (!located) throw new NotFound('image not found');
        const { info } = located;
        reply.header('etag', info.etag).header('cache-control', IMMUTABLE);
        if (noneMatch(request.headers['if-none-match'], info.etag)) return reply.code(304).send(NO_BODY);

        reply.header('accept-ranges', 'bytes');
        const range = decideRange(
          request.headers.range,
          info.size,
          info.etag,
          single(request.headers['if-range']),
        );
        if (range.kind === 'unsatisfiable') {
          return reply
            .code(416)
            .header('content-range', `bytes */${info.size}`)
            .send({ error: `range not satisfiable: the image has ${info.size} bytes` });
        }
        reply.type(located.contentType);
        if (range.kind === 'partial') {
          reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
            .header('content-length', range.end - range.start + 1);
        } else {
          reply.header('content-length', info.size);
        }
        if (request.method === 'HEAD') return reply.send();
        return reply.send(await delivery.open(located.key, range.kind === 'partial' ? range : undefined));
      },
    });
  };
