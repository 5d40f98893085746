/**
 * Response compression (@fastify/compress): JSON, NDJSON, YAML and text bodies of 1 KiB or more
 * are sent br or gzip encoded when the request's Accept-Encoding allows it (br preferred), with
 * `Vary: Accept-Encoding`. Images are left alone (already compressed). Registered after the
 * response cache, so the cache keeps and hashes the uncompressed body: the ETag names the content
 * whatever the encoding, and If-None-Match → 304 works the same with or without compression.
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const COMPRESS_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: /^(application\/(json|x-ndjson|yaml)|text\/)/,
    // Brotli's default (quality 11) costs ~10× the CPU of gzip for a few percent; 5 is
    // smaller than gzip's default at about its speed.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}
