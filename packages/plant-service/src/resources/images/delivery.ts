/**
 * Serving image bytes under /img. Objects are served straight from the store, which
 * keeps the hot path to a stat and an open on the filesystem backend. Resized copies (`?w=`) are
 * WebP files made with sharp on the first request and kept in the store beside the original;
 * concurrent first requests for the same copy share one resize. An original that does not decode
 * (stored before uploads were decoded in full) is remembered, so later `?w=` requests for it are
 * answered at once instead of decoding it again each time.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { BadRequest, NotFound, ServiceUnavailable } from '../../errors.js';
import {
  type ByteRange,
  type ObjectInfo,
  ObjectNotFound,
  type ObjectStore,
  StorageError,
} from '../../storage/object-store.js';
import { contentTypeOf, type ImageKey, parseOriginalKey, variantKey } from './image-keys.js';
import type { ImageWork } from './image-work.js';
import type { ImageWidth } from './schemas.js';
import { loadSharp } from './sharp.js';
import { MAX_PIXELS } from './upload-stream.js';

export interface Located {
  /** The object to send: the original, or its resized copy. */
  key: string;
  info: ObjectInfo;
  contentType: string;
}

const WEBP_QUALITY = 80;
/** Originals remembered as undecodable; a key is a few dozen bytes. */
const MAX_UNDECODABLE = 10_000;

const undecodableError = () =>
  new BadRequest('w: this image cannot be resized (its stored data does not decode); request it without w', {
    field: 'w',
  });

export function imageDelivery(
  store: ObjectStore,
  log: FastifyBaseLogger,
  work: ImageWork,
  onResize: (outcome: 'ok' | 'failed') => void = () => {},
) {
  function translate(error: unknown): unknown {
    if (error instanceof ObjectNotFound) return new NotFound('image not found');
    if (error instanceof StorageError) {
      log.error({ err: error }, 'image read: object store failed');
      return new ServiceUnavailable('image storage is unavailable; try again later', {}, { cause: error });
    }
    return error;
  }

  const resizing = new Map<string, Promise<ObjectInfo | undefined>>();
  const undecodable = new LRUCache<string, true>({ max: MAX_UNDECODABLE });
  async function resize(original: ImageKey, key: string, target: string, width: ImageWidth) {
    const sharp = await loadSharp();
    const source = await store.get(key).catch((error) => {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    });
    if (!source) return undefined;
    // Orientation from EXIF is applied, so copies display as the original does; never enlarged.
    const transform = sharp({ failOn: 'none', limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY });
    source.once('error', (error) => transform.destroy(error));
    let data: Buffer;
    try {
      data = await source.pipe(transform).toBuffer();
    } catch (error) {
      if (error instanceof StorageError) throw error;
      undecodable.set(key, true);
      log.warn({ key, reason: (error as Error).message }, 'stored image does not decode; no resized copies');
      throw undecodableError();
    } finally {
      // A failed decode stops reading: the source must still close its file or connection.
      source.destroy();
    }
    await store.put(target, Readable.from([data]), { contentType: 'image/webp' });
    log.debug({ key: target, bytes: data.length, original: original.imageId }, 'resized image stored');
    return store.head(target);
  }

  return {
    /** The object for `key` (an original's key) at `width`; undefined when there is none. */
    async locate(key: string, width?: ImageWidth): Promise<Located | undefined> {
      const original = parseOriginalKey(key);
      if (!original) return undefined;
      try {
        if (width === undefined) {
          const info = await store.head(key);
          return info && { key, info, contentType: contentTypeOf(original) };
        }
        if (undecodable.has(key)) throw undecodableError();
        const target = variantKey(original, width);
        let info = await store.head(target);
        if (!info) {
          let pending = resizing.get(target);
          if (!pending) {
            // A decoded 50-megapixel original takes about 150 MB: resizes wait for their turn with the
            // uploads' decodes (image-work.ts).
            pending = work
              .run(() => resize(original, key, target, width))
              .then(
                (made) => {
                  if (made) onResize('ok');
                  return made;
                },
                (error: unknown) => {
                  onResize('failed');
                  throw error;
                },
              )
              .finally(() => resizing.delete(target));
            resizing.set(target, pending);
          }
          info = await pending;
        }
        return info && { key: target, info, contentType: 'image/webp' };
      } catch (error) {
        throw translate(error);
      }
    },

    async open(key: string, range?: ByteRange): Promise<Readable> {
      try {
        return await store.get(key, range);
      } catch (error) {
        throw translate(error);
      }
    },
  };
}

export type ImageDelivery = ReturnType<typeof imageDelivery>;
