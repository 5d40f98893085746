/**
 * Image rules. The bytes go to the object store, the record to the
 * database, in an order that loses nothing and leaves at most an orphan object:
 * - upload: object first, then the record; when the record cannot be written the object is
 *   deleted again, and a crash in between leaves an orphan that the sweep (storage/gc.ts) removes;
 * - delete: record first, then the objects; a failed object delete is again an orphan for the sweep.
 * Primary images: an entity with images has exactly one primary. The first image becomes primary;
 * `is_primary` moves the flag to the new image; deleting the primary promotes the newest remaining
 * one. Each change, with the entity's `primary_image_key`, is one transaction that holds the
 * entity's row lock.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CatalogueRepository } from '../../db/catalogue-repository.js';
import type { Database } from '../../db/client.js';
import type { Transaction } from '../../db/transaction.js';
import { BadRequest, NotFound, PayloadTooLarge, ServiceUnavailable } from '../../errors.js';
import type { EntityType } from '../../schema/vocabularies.js';
import { type ObjectStore, StorageError } from '../../storage/object-store.js';
import { DecodedTooLarge, decodeFully } from './decode.js';
import { entityPrefix, FORMATS, originalKey, parseOriginalKey, variantKey } from './image-keys.js';
import type { ImageWork } from './image-work.js';
import { imageRepository as repo } from './repository.js';
import { IMAGE_WIDTHS, type Image, type UploadFields } from './schemas.js';
import { loadSharp } from './sharp.js';
import { sniffUpload, type UploadFile } from './upload-stream.js';

/** An uploaded object that has no record yet: commit() or discard() it. */
export interface StagedImage {
  readonly id: string;
  readonly key: string;
  readonly entityType: EntityType;
  readonly entityId: string;
  readonly contentType: string;
  readonly byteSize: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly fields: UploadFields;
}

export interface ImageServiceOptions {
  maxBytes: number;
  /** Uploads whose pixels would take more bytes than this decoded are refused (413). */
  maxDecodedBytes: number;
  /** The turns decodes wait for, shared with the resizes of /img. */
  work: ImageWork;
  log: FastifyBaseLogger;
  /** The repositories of the entities that carry images: removing one removes its images. */
  entities: Record<EntityType, CatalogueRepository<unknown>>;
}

const storageUnavailable = (error: StorageError) =>
  new ServiceUnavailable('image storage is unavailable; try again later', {}, { cause: error });

export function imageService(
  { db }: Database,
  store: ObjectStore,
  { maxBytes, maxDecodedBytes, work, log, entities }: ImageServiceOptions,
) {
  /** Removes objects and their resized copies; failures are logged and left to the sweep. */
  async function removeObjects(keys: string[]): Promise<void> {
    for (const key of keys) {
      const parsed = parseOriginalKey(key);
      const all = parsed ? [key, ...IMAGE_WIDTHS.map((w) => variantKey(parsed, w))] : [key];
      for (const k of all) {
        await store.delete(k).catch((error) => log.warn({ err: error, key: k }, 'image object not deleted'));
      }
    }
  }

  async function removePrefix(prefix: string): Promise<void> {
    try {
      for await (const object of store.list(prefix)) await store.delete(object.key);
    } catch (error) {
      log.warn({ err: error, prefix }, 'image objects not deleted; the storage sweep will retry');
    }
  }

  async function discard(staged: StagedImage): Promise<void> {
    await removeObjects([staged.key]);
  }

  /**
   * Inside the entity's delete transaction: removes the entity's image records; after the commit,
   * the objects (and anything else under the entity's prefix).
   */
  async function detach(t: Transaction, entityType: EntityType, entityId: string): Promise<void> {
    await repo.lockEntity(t.tx, entityType, entityId);
    const keys = await repo.deleteForEntity(t.tx, entityType, entityId);
    t.afterCommit(async () => {
      await removeObjects(keys);
      await removePrefix(entityPrefix(entityType, entityId));
    });
  }
  for (const [entityType, repository] of Object.entries(entities) as [
    EntityType,
    CatalogueRepository<unknown>,
  ][]) {
    repository.onRemove((t, entityId) => detach(t, entityType, entityId));
  }

  return {
    list(entityType: EntityType, entityId: string): Promise<Image[]> {
      return repo.listForEntity(db, entityType, entityId.toLowerCase());
    },

    /**
     * Checks the entity, streams the file into the store (413, 415, 400, 404, 503), then decodes
     * it whole from there: pixel data that does not decode is a 400 and the object goes again.
     */
    async stage(fields: UploadFields, file: UploadFile): Promise<StagedImage> {
      const entityType = fields.entity_type;
      const entityId = fields.entity_id.toLowerCase();
      if (!(await entities[entityType].exists(db, entityId))) {
        file.destroy();
        throw new NotFound(`${entityType} ${entityId} not found`, { field: 'entity_id' });
      }
      const sharp = await loadSharp().catch((error: unknown) => {
        file.destroy();
        throw error;
      });
      const sniffed = await sniffUpload(file, maxBytes);
      const id = randomUUID();
      const key = originalKey(entityType, entityId, id, sniffed.format);
      const { contentType } = FORMATS[sniffed.format];
      let size: number;
      try {
        ({ size } = await store.put(key, sniffed.body, { contentType }));
      } catch (error) {
        if (error instanceof StorageError) {
          log.error({ err: error, key }, 'image upload: object store failed');
          throw storageUnavailable(error);
        }
        throw error;
      }
      try {
        await work.run(async () => decodeFully(sharp, await store.get(key), maxDecodedBytes));
      } catch (error) {
        await removeObjects([key]);
        if (error instanceof StorageError) throw storageUnavailable(error);
        if (error instanceof ServiceUnavailable) throw error;
        if (error instanceof DecodedTooLarge) {
          throw new PayloadTooLarge(
            `file: ${error.message}, more than the limit of ${maxDecodedBytes} bytes (IMAGE_MAX_DECODED_MB)`,
            { field: 'file', limit: maxDecodedBytes },
          );
        }
        throw new BadRequest(
          `file: not a decodable ${sniffed.format.toUpperCase()} image (${reason(error)})`,
          {
            field: 'file',
          },
        );
      }
      return {
        id,
        key,
        entityType,
        entityId,
        contentType,
        byteSize: size,
        width: sniffed.dimensions?.width ?? null,
        height: sniffed.dimensions?.height ?? null,
        fields,
      };
    },

    /** Writes the record (and the primary change) in one transaction; on failure the object goes. */
    async commit(staged: StagedImage): Promise<Image> {
      const { entityType, entityId, fields } = staged;
      try {
        return await db.transaction(async (tx) => {
          if (!(await repo.lockEntity(tx, entityType, entityId))) {
            throw new NotFound(`${entityType} ${entityId} not found`, { field: 'entity_id' });
          }
          const wanted = fields.is_primary === 'true' || fields.is_primary === '1';
          const primary = wanted || !(await repo.hasPrimary(tx, entityType, entityId));
          if (primary) await repo.clearPrimary(tx, entityType, entityId);
          const image = await repo.insert(tx, {
            id: staged.id,
            entity_type: entityType,
            entity_id: entityId,
            store_key: staged.key,
            content_type: staged.contentType,
            byte_size: staged.byteSize,
            width: staged.width,
            height: staged.height,
            caption: fields.caption || null,
            source_url: fields.source_url || null,
            license: fields.license || null,
            is_primary: primary,
          });
          if (primary) await repo.setEntityPrimaryKey(tx, entityType, entityId, staged.key);
          return image;
        });
      } catch (error) {
        await discard(staged);
        throw error;
      }
    },

    discard,

    /** Deletes the record (promoting the newest remaining image if it was primary), then the objects. */
    async remove(id: string): Promise<void> {
      const imageId = id.toLowerCase();
      const removed = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, imageId);
        if (!found) throw new NotFound(`image ${imageId} not found`);
        await repo.lockEntity(tx, found.entity_type, found.entity_id);
        // Read again under the lock: a concurrent delete may have won.
        const image = await repo.findById(tx, imageId);
        if (!image) throw new NotFound(`image ${imageId} not found`);
        await repo.delete(tx, image.id);
        if (image.is_primary) {
          const next = await repo.newest(tx, image.entity_type, image.entity_id);
          if (next) await repo.setPrimary(tx, next.id);
          await repo.setEntityPrimaryKey(tx, image.entity_type, image.entity_id, next?.store_key ?? null);
        }
        return image;
      });
      await removeObjects([removed.store_key]);
    },
  };
}

/** sharp's first line, without libvips' trailing newline. */
function reason(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .trim();
}

export type ImageService = ReturnType<typeof imageService>;
