/**
 * Response cache for public reads. Routes opt in with `config: { cache: true }`; their 200
 * bodies are kept per URL in a byte-bounded LRU, tagged with the data version of the change
 * feed when the request started, and served only while that version is current. Every
 * successful write (POST, PUT, PATCH, DELETE answered below 400) moves the version, so a write is
 * visible to the next read. Responses carry an ETag (If-None-Match → 304) and `X-Cache: HIT|MISS`.
 *
 * A body above ADMIT_AT_ONCE_BYTES is kept only when its URL was requested before (recently: the
 * last SEEN_URLS URLs are remembered). Under traffic whose URLs seldom repeat (filter panels,
 * crawlers), keeping every large body only pushed the one before it out and left both for the
 * old generation's collector: it cost a list page with facets a quarter of the throughput it has
 * without the cache. Small bodies (a record, a page of search results) cost little to keep, and are
 * kept at once.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../db/change-feed.js';
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
  body: string;
  etag: string;
  type: string;
  version: number;
}

const MAX_ENTRY_BYTES = 1024 * 1024;
/** Bodies up to this size are kept from their first request; larger ones from their second. */
const ADMIT_AT_ONCE_BYTES = 16 * 1024;
/** URLs of large bodies remembered as requested, so that a second request keeps its body. */
const SEEN_URLS = 16_384;

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: the ETag sent in If-None-Match is current (the response cache is on).',
};

export const responseCache = fp<{ feed: ChangeFeed; maxBytes: number; metrics: AppMetrics }>(
  async (app: FastifyInstance, { feed, maxBytes, metrics }) => {
    const cache =
      maxBytes > 0
        ? new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e) => e.body.length * 2 + 200 })
        : undefined;
    if (cache) metrics.cache.size(() => cache.calculatedSize);
    const seen = cache ? new LRUCache<string, true>({ max: SEEN_URLS }) : undefined;

    // A cached route answers a current If-None-Match with 304; its document says so.
    app.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      if (!(route.config as { cache?: boolean } | undefined)?.cache || !response) return;
      route.schema = { ...route.schema, response: { ...response, 304: NOT_MODIFIED } };
    });

    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || !request.routeOptions.config.cache || !cache || !feed.live) return;
      request.cacheVersion = feed.version;
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
      if (reply.statusCode !== 200 || typeof payload !== 'string' || payload.length > MAX_ENTRY_BYTES)
        return payload;
      const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
      if (payload.length <= ADMIT_AT_ONCE_BYTES || seen?.delete(request.url)) {
        cache?.set(request.url, {
          body: payload,
          etag,
          type: String(reply.getHeader('content-type')),
          version,
        });
      } else {
        seen?.set(request.url, true);
      }
      reply.header('etag', etag).header('x-cache', 'MISS');
      return payload;
    });
  },
  { name: 'response-cache' },
);
