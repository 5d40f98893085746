/** /api/v1/images: list an entity's images, upload (session), delete (admin). */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { needsAuth } from '../../http/needs-auth.js';
import { Deleted, errors, sessionSecurity } from '../../http/route-schemas.js';
import { Ref } from '../../schema/types.js';
import {
  EntityImagesParams,
  ImageIdParams,
  ImageListSchema,
  ImageSchema,
  UploadFormSchema,
} from './schemas.js';
import type { ImageService } from './service.js';
import { FORM_LIMITS, readUploadForm } from './upload-form.js';

const tags = ['images'];

export const imageRoutes = (
  service: ImageService,
  { maxBytes }: { maxBytes: number },
): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    // Registered here, so only this route set parses multipart bodies.
    await app.register(multipart, { limits: { ...FORM_LIMITS, fileSize: maxBytes } });

    app.get(
      '/:entity_type/:entity_id',
      {
        schema: {
          operationId: 'listImages',
          tags,
          summary: "List a record's images",
          description:
            'Primary image first, then newest first. A record without images, or that does not exist, ' +
            'gives an empty list.',
          params: EntityImagesParams,
          response: { 200: ImageListSchema, ...errors(400) },
        },
      },
      (request) => service.list(request.params.entity_type, request.params.entity_id),
    );

    app.post(
      '/',
      {
        onRequest: app.auth.writer,
        // The body is a multipart stream, validated part by part (upload-form.ts) against the
        // same field schema documented here.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'uploadImage',
          tags,
          summary: 'Upload an image',
          description:
            'multipart/form-data with the fields below; the file must be the last part. ' +
            'The type is recognised from the bytes (JPEG, PNG, WebP; else 415), whatever the declared ' +
            `type or name. Larger than IMAGE_MAX_BYTES (default ${10} MiB): 413, detected while ` +
            'streaming. More than 50 megapixels: 400. Pixels taking more than IMAGE_MAX_DECODED_MB decoded ' +
            '(width × height × channels × bytes per sample, from the header): 413. The image is decoded to its last pixel before it is ' +
            'accepted: truncated or corrupt pixel data is a 400 naming `file`. The record must exist (404). The first image ' +
            'of a record becomes its primary; `is_primary` true/1 makes the new image the primary. ' +
            '503 while the image store or the image library (loaded with the first image) is unavailable, ' +
            'or when too many images wait to be decoded or resized (IMAGE_QUEUE_MAX; `Retry-After`).',
          security: sessionSecurity,
          consumes: ['multipart/form-data'],
          body: UploadFormSchema,
          response: { 200: Ref(ImageSchema), ...errors(400, 401, 403, 404, 413, 415, 503) },
        },
      },
      async (request, reply) => {
        let form: Awaited<ReturnType<typeof readUploadForm>> | undefined;
        try {
          form = await readUploadForm(request, maxBytes);
          const staged = await service.stage(form.fields, form.file);
          try {
            await form.assertEnd();
          } catch (error) {
            await service.discard(staged);
            throw error;
          }
          return await service.commit(staged);
        } catch (error) {
          // The rest of a refused upload is not worth reading.
          if (!form?.file.readableEnded) reply.header('connection', 'close');
          throw error;
        }
      },
    );

    app.delete(
      '/:id',
      {
        onRequest: app.auth.admin,
        schema: {
          operationId: 'deleteImage',
          tags,
          summary: 'Delete an image (admin)',
          description:
            'Removes the record, then the file and its resized copies. Deleting the primary image ' +
            "promotes the newest remaining one (or clears the record's `primary_image_key`).",
          security: sessionSecurity,
          params: ImageIdParams,
          response: { 200: Deleted, ...errors(400, 401, 403, 404, 503) },
        },
      },
      async (request) => {
        await service.remove(request.params.id);
        return { deleted: true };
      },
    );
  });
