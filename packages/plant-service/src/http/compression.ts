/**
 * Response compression (@fastify/compress): JSON, NDJSON, YAML and text bodies of 1 KiB or more
 * are sent br or gzip encoded when the request's Accept-Encoding allows it (br preferred), with
 * `Vary: Accept-Encoding`. Images are left alone (already compressed). Registered after the
 * response cache, so the cache sees the uncompressed body and hashes it: the ETag names the content
 * whatever the encoding, and If-None-Match → 304 works the same with or without compression.
 *
 * The one exception to br first: a body the response cache keeps gzip-encoded (see
 * response-cache.ts) is sent as kept to every client that accepts gzip. Encoding it again as br for
 * each request would add about 90 µs to a page of search results (a whole hit costs about 150 µs)
 * to save about 5 % of its bytes.
 */
import { constants } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The content types sent compressed (when the client accepts it and the body is large enough). */
export const COMPRESSIBLE_TYPES = /^(application\/(json|x-ndjson|yaml)|text\/)/;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE_TYPES,
    // Bodies held in memory up to this size are encoded at once on the event loop. The plugin's
    // default on two cores, 8 KiB, sent pages of search results and list pages through a zlib
    // stream each, on the thread pool: more CPU than the encoding itself, and every pool thread's
    // allocator kept the encoders' memory. At about 4 µs per KiB, 1 MiB blocks for ~4 ms.
    syncThreshold: 1024 * 1024,
    // Every response is encoded anew (but those the cache keeps encoded), so quality is CPU per
    // request. Measured on a record (2.5 KB), a page of search results (9 KB) and a cultivar page
    // (49 KB): quality 5 took 144, 318 and 599 µs; 3 takes 42, 90 and 191 µs for 1–5 % more bytes,
    // about gzip's default in both. Brotli's own default, 11, costs ten times more again.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
  });
}

/**
 * Accept-Encoding headers seen and whether they allow gzip: browsers send a few distinct ones, so
 * each is parsed once. Headers are the client's to choose, so only a bounded number are remembered.
 */
const gzipAllowed = new Map<string, boolean>();
const MAX_HEADERS_REMEMBERED = 256;

/**
 * Whether `request` may be answered gzip-encoded, as the compression plugin decides: its
 * Accept-Encoding allows gzip (a q-value above 0, directly or through `*`), and it did not ask for
 * no compression with `x-no-compression`.
 */
export function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return false;
  let allowed = gzipAllowed.get(header);
  if (allowed === undefined) {
    if (gzipAllowed.size >= MAX_HEADERS_REMEMBERED) gzipAllowed.clear();
    allowed = negotiate(header, ['gzip']) === 'gzip';
    gzipAllowed.set(header, allowed);
  }
  return allowed;
}

/** Marks `reply` as gzip-encoded, and as varying with Accept-Encoding (as compressed replies are). */
export function sendsGzip(reply: FastifyReply): FastifyReply {
  const vary = reply.getHeader('vary');
  const listed = String(vary ?? '')
    .split(',')
    .some((v) => v.trim().toLowerCase() === 'accept-encoding');
  if (!listed) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  return reply.header('content-encoding', 'gzip');
}
