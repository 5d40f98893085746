/**
 * Response compression (@fastify/compress): JSON, NDJSON, YAML and text bodies of 1 KiB or more
 * are sent br or gzip encoded when the request's Accept-Encoding allows it (br preferred), with
 * `Vary: Accept-Encoding`. Images are left alone (already compressed). Registered after the
 * response cache, so the cache sees the uncompressed body and hashes it: the ETag names the content
 * whatever the encoding, and If-None-Match → 304 works the same with or without compression.
 * The response cache keeps bodies as this plugin encoded them, per negotiated encoding
 * (response-cache.ts), so a hit is not encoded again.
 *
 * `Vary: Accept-Encoding` goes on every response of a compressible type, encoded or not, and on
 * every 304: whether a body is encoded depends on its size as well as the request, so a shared
 * cache that saw a small identity body without Vary could hand it (or a later larger encoded one)
 * to clients that asked otherwise. The plugin itself adds Vary only when it encodes.
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The content types sent compressed (when the client accepts it and the body is large enough). */
export const COMPRESSIBLE_TYPES = /^(application\/(json|x-ndjson|yaml)|text\/)/;

/** The encodings offered, in order of preference. */
export const ENCODINGS = ['br', 'gzip'] as const;

/** `vary` with accept-encoding added (in the case the plugin looks for), unless already named or `*`. */
export function withAcceptEncoding(vary: string | undefined): string {
  if (!vary) return 'accept-encoding';
  const named = vary.split(',').map((field) => field.trim().toLowerCase());
  if (named.includes('accept-encoding') || named.includes('*')) return vary;
  return `${vary}, accept-encoding`;
}

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Added before the plugin's own hook, so it sees the type the route set; the plugin appends to
  // Vary only when the field is missing, so the two do not repeat it.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (reply.statusCode === 304 || (typeof type === 'string' && COMPRESSIBLE_TYPES.test(type))) {
      const vary = reply.getHeader('vary');
      reply.header('vary', withAcceptEncoding(vary === undefined ? undefined : String(vary)));
    }
    return payload;
  });
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: [...ENCODINGS],
    customTypes: COMPRESSIBLE_TYPES,
    // Bodies held in memory up to this size are encoded at once on the event loop. The plugin's
    // default on two cores, 8 KiB, sent pages of search results and list pages through a zlib
    // stream each, on the thread pool: more CPU than the encoding itself, and every pool thread's
    // allocator kept the encoders' memory. At about 4 µs per KiB, 1 MiB blocks for ~4 ms.
    syncThreshold: 1024 * 1024,
    // Every response the cache does not hold is encoded anew, so quality is CPU per request. Measured on a record (2.5 KB), a page of search results (9 KB) and a cultivar page
    // (49 KB): quality 5 took 144, 318 and 599 µs; 3 takes 42, 90 and 191 µs for 1–5 % more bytes,
    // about gzip's default in both. Brotli's own default, 11, costs ten times more again.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
  });
}
