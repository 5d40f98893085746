/**
 * Response cache for public reads. Routes opt in with `config: { cache: true }`; their 200
 * bodies are kept per URL in a byte-bounded region (oldest out first), tagged with the data
 * version of the change feed when the request started, and served only while that version is
 * current. Every successful write (POST, PUT, PATCH, DELETE answered below 400) moves the
 * version, so a write is visible to the next read. Responses carry an ETag (If-None-Match → 304)
 * and `X-Cache: HIT|MISS`.
 *
 * Bodies are kept as their UTF-8 bytes in one region of `maxBytes` allocated once, written one
 * after the other around it, the oldest pushed out first (lib/body-ring.ts). Kept as strings, they
 * grew the old generation, which V8 lets grow a quarter beyond its live size before collecting it;
 * kept as a buffer each, every body pushed out was garbage outside the heap that counted towards
 * V8's external-memory limit: under traffic whose URLs seldom repeat, either way the service ran a
 * full collection about every half second (a fifth to a third fewer species read by slug per
 * second with the cache than without, p99 twice as long) and held tens of MB of bodies already
 * pushed out.
 *
 * A body up to ADMIT_AT_ONCE_CHARS characters (a record, a page of search results) is kept at
 * once. A larger one (a list page, a guild) is kept while there is room, and once the cache is
 * full only if its URL was requested more often lately than the entries it would push out
 * (lib/frequency-admission.ts; requests are counted in a sketch sized for COUNTED_URLS URLs).
 * Under traffic whose URLs seldom repeat (filter panels, crawlers), keeping every large body
 * pushed out one that was read more often and left both for the old generation's collector: list
 * pages with facets ran a fifth slower with the cache than without it. Small bodies cost the
 * collector little, and type-ahead searches, which repeat within minutes but seldom three times,
 * lose two thirds of their hits when kept only for a URL requested more often than those they
 * push out.
 *
 * A body kept at once of KEEP_GZIPPED_FROM_BYTES or more, of a compressible type, is kept
 * gzip-encoded (level 1, nginx's default: less CPU than level 6 for a few percent more bytes). A
 * page of search results shrinks to about a third, so the region holds about three times as many
 * (on the benchmark's type-ahead traffic, 86 % hits instead of 46 %). A hit is sent as kept to a
 * client that accepts gzip, and decoded for one that does not (about 30 µs for a page of search
 * results); a miss that is kept is sent as kept too. Smaller bodies (most records) stay as they
 * are: most are read once, and encoding each would cost a tenth of its request for little room.
 * So do larger ones (list pages): encoding a 48 KB page costs about 180 µs, and under traffic whose
 * URLs seldom repeat most are read once (cultivar pages by number ran a third slower).
 */
import { hash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeFeed } from '../db/change-feed.js';
import { BodyRing } from '../lib/body-ring.js';
import { FrequencyAdmission } from '../lib/frequency-admission.js';
import { WRITE_METHODS } from '../lib/write-methods.js';
import { acceptsGzip, COMPRESSIBLE_TYPES, sendsGzip } from './compression.js';
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

/** What is kept with a body. */
interface Kept {
  etag: string;
  type: string;
  /** The data version the body was read at. */
  version: number;
  /** Whether the body is kept gzip-encoded. */
  gzip: boolean;
}

/** Bodies longer than this many characters are not kept. */
const MAX_ENTRY_CHARS = 1024 * 1024;
/** Bodies up to this many characters are kept at once; longer ones by the frequency of their URL. */
const ADMIT_AT_ONCE_CHARS = 16 * 1024;
/** Bodies kept at once of this many bytes or more (of a compressible type) are kept gzip-encoded. */
const KEEP_GZIPPED_FROM_BYTES = 4 * 1024;
const GZIP_LEVEL = 1;
/** About how many distinct URLs the admission's counts tell apart (64 KB of counters). */
const COUNTED_URLS = 16_384;

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: the ETag sent in If-None-Match is current (the response cache is on).',
};

export const responseCache = fp<{ feed: ChangeFeed; maxBytes: number; metrics: AppMetrics }>(
  async (app: FastifyInstance, { feed, maxBytes, metrics }) => {
    const cache = maxBytes > 0 ? new BodyRing<Kept>(maxBytes) : undefined;
    if (cache) metrics.cache.size(() => cache.held);
    const frequency = cache ? new FrequencyAdmission(COUNTED_URLS, () => cache.size) : undefined;

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
      if (!entry || entry.meta.version !== feed.version) {
        metrics.cache.miss();
        return;
      }
      metrics.cache.hit();
      reply.header('etag', entry.meta.etag).header('x-cache', 'HIT');
      if (noneMatch(request.headers['if-none-match'], entry.meta.etag)) return reply.code(304).send();
      reply.type(entry.meta.type);
      if (!entry.meta.gzip) return reply.send(cache.read(entry));
      if (acceptsGzip(request)) return sendsGzip(reply).send(cache.read(entry));
      return reply.send(gunzipSync(cache.view(entry)));
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
      // The ETag is the hash of the body's UTF-8 bytes, as the text hashes.
      const etag = `"${hash('sha1', payload, 'base64url')}"`;
      reply.header('etag', etag);
      if (!cache) return payload;
      const bytes = Buffer.byteLength(payload);
      const atOnce = payload.length <= ADMIT_AT_ONCE_CHARS;
      const victims = atOnce ? [] : cache.victims(bytes);
      const admitted =
        victims !== undefined &&
        frequency?.admits(
          request.url,
          victims.map((v) => ({ key: v.key, stale: v.meta.version !== feed.version })),
        ) === true;
      if (!admitted) return payload;
      const type = String(reply.getHeader('content-type'));
      const gzip = atOnce && bytes >= KEEP_GZIPPED_FROM_BYTES && COMPRESSIBLE_TYPES.test(type);
      if (!gzip) {
        cache.set(request.url, payload, bytes, { etag, type, version, gzip: false });
        return payload;
      }
      const encoded = gzipSync(payload, { level: GZIP_LEVEL });
      cache.set(request.url, encoded, encoded.length, { etag, type, version, gzip: true });
      if (!acceptsGzip(request)) return payload;
      sendsGzip(reply);
      return encoded;
    });
  },
  { name: 'response-cache' },
);
