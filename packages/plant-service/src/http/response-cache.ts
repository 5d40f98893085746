/**
 * Response cache for public reads, and the HTTP caching headers of those reads. Routes opt in
 * with `config: { cache: true }`.
 *
 * Their 200 responses are kept in a least-recently-used cache bounded by bytes (lru-cache), keyed
 * by method, URL and the encoding the request negotiates, and kept as they were sent (encoded by
 * the compression plugin, whose hook runs between this plugin's two), so a hit costs no query and
 * no encoding. The database empties it: every committed change to a catalogue table is announced
 * by a trigger and arrives through the change feed (db/change-feed.ts), whoever wrote it. While
 * the feed is not live the cache is neither read nor filled. A response read before a change was
 * announced is not kept after it. A write's response waits until its own change has been
 * announced, so a client reads its write on the next request.
 *
 * Every such response carries an ETag (a hash of the uncompressed body; If-None-Match → 304) and
 * `Cache-Control: public` with HTTP_MAX_AGE_SECONDS: 0 (the default) sends `no-cache`, so caches in
 * front revalidate every time and see a write at once; more lets them reuse a response that long
 * (and as long again while they revalidate). `X-Cache: HIT|MISS` says whether this instance's
 * cache answered.
 */
import { hash } from 'node:crypto';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../db/change-feed.js';
import { WRITE_METHODS } from '../lib/write-methods.js';
import { ENCODINGS } from './compression.js';
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
    /** Where this cached route's response is kept, and the feed's version when it was read. */
    cacheSlot?: { key: string; version: number };
  }
}

interface Kept {
  body: Buffer;
  etag: string;
  type: string;
  encoding: string | undefined;
  vary: string | undefined;
}

/** Bodies larger than this are not kept. */
const MAX_ENTRY_BYTES = 1024 * 1024;

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: the ETag sent in If-None-Match is current.',
};

/** The encoding the compression plugin will choose for `request`, as part of the cache key. */
function negotiated(request: FastifyRequest): string {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return 'identity';
  return negotiate(header, [...ENCODINGS]) ?? 'identity';
}

const cached = (request: FastifyRequest) =>
  request.method === 'GET' && request.routeOptions.config.cache === true;

function cacheControl(maxAgeSeconds: number): string {
  return maxAgeSeconds === 0
    ? 'public, no-cache'
    : `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds}`;
}

export interface ResponseCacheOptions {
  feed: ChangeFeed;
  maxBytes: number;
  maxAgeSeconds: number;
  metrics: AppMetrics;
}

/**
 * The cache's lookup and ETag; `keep` (registered after compression) stores what was sent.
 */
export function responseCache({ feed, maxBytes, maxAgeSeconds, metrics }: ResponseCacheOptions) {
  const cache =
    maxBytes > 0
      ? new LRUCache<string, Kept>({
          maxSize: maxBytes,
          maxEntrySize: MAX_ENTRY_BYTES,
          sizeCalculation: (kept, key) => kept.body.length + key.length + kept.etag.length + 64,
        })
      : undefined;
  if (cache) {
    metrics.cache.size(() => cache.calculatedSize);
    feed.onChange(() => cache.clear());
  }
  const control = cacheControl(maxAgeSeconds);

  const lookup = fp(
    async (app: FastifyInstance) => {
      // A cached route answers a current If-None-Match with 304; its document says so.
      app.addHook('onRoute', (route) => {
        const response = route.schema?.response as Record<string, unknown> | undefined;
        if (!(route.config as { cache?: boolean } | undefined)?.cache || !response) return;
        route.schema = { ...route.schema, response: { ...response, 304: NOT_MODIFIED } };
      });

      app.addHook('onRequest', async (request, reply) => {
        if (!cache || !feed.live || !cached(request)) return;
        const key = `GET ${request.url} ${negotiated(request)}`;
        request.cacheSlot = { key, version: feed.version };
        const kept = cache.get(key);
        if (kept === undefined) {
          metrics.cache.miss();
          return;
        }
        metrics.cache.hit();
        reply.header('etag', kept.etag).header('cache-control', control).header('x-cache', 'HIT');
        if (noneMatch(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
        if (kept.encoding) reply.header('content-encoding', kept.encoding);
        if (kept.vary) reply.header('vary', kept.vary);
        return reply.type(kept.type).send(kept.body);
      });

      app.addHook('onSend', async (request, reply, payload) => {
        if (WRITE_METHODS.has(request.method) && !request.routeOptions.config.readOnly) {
          if (reply.statusCode < 400) await feed.settled();
          return payload;
        }
        if (!cached(request) || reply.statusCode !== 200 || reply.getHeader('x-cache') === 'HIT')
          return payload;
        if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
        const etag = `"${hash('sha1', payload, 'base64url')}"`;
        reply.header('etag', etag).header('cache-control', control);
        if (request.cacheSlot) reply.header('x-cache', 'MISS');
        if (noneMatch(request.headers['if-none-match'], etag)) {
          request.cacheSlot = undefined;
          reply.code(304);
          return '';
        }
        return payload;
      });
    },
    { name: 'response-cache' },
  );

  const keep = fp(
    async (app: FastifyInstance) => {
      app.addHook('onSend', async (request, reply: FastifyReply, payload) => {
        const slot = request.cacheSlot;
        if (!cache || !slot || reply.statusCode !== 200 || reply.getHeader('x-cache') !== 'MISS')
          return payload;
        // Read before a change was announced: what it holds may be older than the change.
        if (!feed.live || feed.version !== slot.version) return payload;
        const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
        if (!Buffer.isBuffer(body)) return payload;
        const encoding = reply.getHeader('content-encoding');
        const vary = reply.getHeader('vary');
        cache.set(slot.key, {
          body,
          etag: String(reply.getHeader('etag')),
          type: String(reply.getHeader('content-type')),
          encoding: encoding === undefined ? undefined : String(encoding),
          vary: vary === undefined ? undefined : String(vary),
        });
        return body;
      });
    },
    { name: 'response-cache-keep', dependencies: ['response-cache'] },
  );

  return { lookup, keep };
}
