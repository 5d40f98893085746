/**
 * Response cache for public reads. Routes opt in with `config: { cache: true }`; their 200
 * bodies are kept per URL in a byte-bounded LRU, tagged with the data version of the change
 * feed when the request started, and served only while that version is current. Every
 * successful write (POST, PUT, PATCH, DELETE answered below 400) moves the version, so a write is
 * visible to the next read. Responses carry an ETag (If-None-Match → 304) and `X-Cache: HIT|MISS`.
 *
 * Bodies are kept as their UTF-8 bytes, outside the JavaScript heap, and `maxBytes` counts those
 * bytes exactly. Kept as strings, they grew the old generation, which V8 lets grow a quarter beyond
 * its live size before collecting it, with every entry the cache pushed out left there as garbage:
 * under type-ahead search a full 32 MB budget (counted at two bytes a character, 16 MB of one-byte
 * strings) raised the heap by 30 MB. A hit also sends the bytes as they are, instead of encoding
 * the text again.
 *
 * A body up to ADMIT_AT_ONCE_CHARS characters (a record, a page of search results) is kept at
 * once. A larger one (a list page, a guild) is kept while there is room, and once the cache is
 * full only if its URL was
 * requested more often lately than the entries it would push out (lib/frequency-admission.ts;
 * requests are counted for the last COUNTED_URLS URLs). Under traffic whose URLs seldom repeat
 * (filter panels, crawlers), keeping every large body pushed out one that was read more often and
 * left both for the old generation's collector: list pages with facets ran a fifth slower with the
 * cache than without it. Small bodies cost the collector little, and type-ahead searches, which
 * repeat within minutes but seldom three times, lose two thirds of their hits when kept only for a
 * URL requested more often than those they push out.
 */
import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../db/change-feed.js';
import { FrequencyAdmission } from '../lib/frequency-admission.js';
import { WRITE_METHODS } from '../lib/write-methods.js';
import { noneMatch } from './conditional.js';
import type { AppMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Cache this public GET route's 200 responses (see http/response-cache.ts). */
    cache?: boolean;
    /** A POST that only reads (e.g. a computation over a posted list): changes no data. */
    readOnly?: boolean;
  }
  interface FastifyRequest {
    cacheVersion?: number;
  }
}

interface Entry {
  /** The body's UTF-8 bytes, in memory of their own (not a slice of a shared pool). */
  body: Buffer;
  etag: string;
  type: string;
  version: number;
}

/** Bodies longer than this many characters are not kept. */
const MAX_ENTRY_CHARS = 1024 * 1024;
/** Bodies up to this many characters are kept at once; longer ones by the frequency of their URL. */
const ADMIT_AT_ONCE_CHARS = 16 * 1024;
/** URLs whose requests are counted for admission (about 2 MB of keys and counts). */
const COUNTED_URLS = 16_384;
/** An entry's own objects, besides its body. */
const ENTRY_BYTES = 200;
/** What an entry whose body has `bytes` bytes takes of the cache's budget. */
const sizeOfBody = (bytes: number) => bytes + ENTRY_BYTES;
const sizeOf = (entry: Entry) => sizeOfBody(entry.body.byteLength);

/** `text` as UTF-8 in a buffer of its own: a pooled one would keep its whole pool slab alive. */
function ownBytes(text: string, bytes: number): Buffer {
  const body = Buffer.allocUnsafeSlow(bytes);
  body.write(text, 'utf8');
  return body;
}

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: the ETag sent in If-None-Match is current (the response cache is on).',
};

export const responseCache = fp<{ feed: ChangeFeed; maxBytes: number; metrics: AppMetrics }>(
  async (app: FastifyInstance, { feed, maxBytes, metrics }) => {
    const cache =
      maxBytes > 0 ? new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: sizeOf }) : undefined;
    if (cache) metrics.cache.size(() => cache.calculatedSize);
    const frequency = cache ? new FrequencyAdmission<string>(COUNTED_URLS, () => cache.size) : undefined;
    const stale = (entry: Entry) => entry.version !== feed.version;

    // A cached route answers a current If-None-Match with 304; its document says so.
    app.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      if (!(route.config as { cache?: boolean } | undefined)?.cache || !response) return;
      route.schema = { ...route.schema, response: { ...response, 304: NOT_MODIFIED } };
    });

    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || !request.routeOptions.config.cache || !cache || !feed.live) return;
      request.cacheVersion = feed.version;
      frequency?.touch(request.url);
      const entry = cache.get(request.url);
      if (!entry || entry.version !== feed.version) {
        metrics.cache.miss();
        return;
      }
      metrics.cache.hit();
      reply.header('etag', entry.etag).header('x-cache', 'HIT');
      if (noneMatch(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
      return reply.type(entry.type).send(entry.body);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (WRITE_METHODS.has(request.method) && !request.routeOptions.config.readOnly) {
        if (reply.statusCode < 400) feed.changed();
        return payload;
      }
      if (request.method !== 'GET') return payload;
      const version = request.cacheVersion;
      if (version === undefined || reply.getHeader('x-cache') === 'HIT') return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string' || payload.length > MAX_ENTRY_CHARS)
        return payload;
      reply.header('x-cache', 'MISS');
      const bytes = Buffer.byteLength(payload);
      // The entry object is made only when kept: an object made for every response and kept for
      // some teaches V8 to allocate them all in the old generation, each holding its body there
      // until the next full collection (a collection every half second under list traffic).
      const kept =
        cache !== undefined &&
        (payload.length <= ADMIT_AT_ONCE_CHARS ||
          frequency?.admits(cache, request.url, sizeOfBody(bytes), sizeOf, stale) === true);
      if (!kept) {
        reply.header('etag', `"${hash('sha1', payload, 'base64url')}"`);
        return payload;
      }
      // Encoded once: the ETag is the hash of the kept bytes (the same as the text's, which hashes
      // as UTF-8), and they go out as kept.
      const body = ownBytes(payload, bytes);
      const etag = `"${hash('sha1', body, 'base64url')}"`;
      reply.header('etag', etag);
      cache.set(request.url, { body, etag, type: String(reply.getHeader('content-type')), version });
      return body;
    });
  },
  { name: 'response-cache' },
);
