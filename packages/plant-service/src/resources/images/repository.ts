/** Image queries: records, the primary flag, and the owning entity's `primary_image_key`. */
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { cultivars, families, images, species } from '../../db/tables.js';
import type { EntityType } from '../../schema/vocabularies.js';
import type { Image } from './schemas.js';

const ENTITY_TABLES: Record<EntityType, PgTable & { id: PgColumn }> = {
  family: families,
  species,
  cultivar: cultivars,
};

const columns = {
  id: images.id,
  entity_type: images.entity_type,
  entity_id: images.entity_id,
  store_key: images.store_key,
  caption: images.caption,
  source_url: images.source_url,
  license: images.license,
  is_primary: images.is_primary,
  content_type: images.content_type,
  byte_size: images.byte_size,
  width: images.width,
  height: images.height,
  created_at: images.created_at,
};

const ofEntity = (entityType: EntityType, entityId: string): SQL =>
  and(eq(images.entity_type, entityType), eq(images.entity_id, entityId)) as SQL;

/** Primary first, then newest. */
const listOrder = [desc(images.is_primary), desc(images.created_at), desc(images.id)];

export const imageRepository = {
  /**
   * Locks the entity's row until the transaction ends, so uploads, image deletes and the
   * entity's own delete take turns; false when the entity does not exist.
   */
  async lockEntity(ex: Executor, entityType: EntityType, entityId: string): Promise<boolean> {
    const table = ENTITY_TABLES[entityType];
    const rows = await ex.select({ id: table.id }).from(table).where(eq(table.id, entityId)).for('update');
    return rows.length > 0;
  },

  listForEntity(ex: Executor, entityType: EntityType, entityId: string): Promise<Image[]> {
    return ex
      .select(columns)
      .from(images)
      .where(ofEntity(entityType, entityId))
      .orderBy(...listOrder);
  },

  async findById(ex: Executor, id: string): Promise<Image | undefined> {
    const rows = await ex.select(columns).from(images).where(eq(images.id, id)).limit(1);
    return rows[0];
  },

  async hasPrimary(ex: Executor, entityType: EntityType, entityId: string): Promise<boolean> {
    const rows = await ex
      .select({ id: images.id })
      .from(images)
      .where(and(ofEntity(entityType, entityId), eq(images.is_primary, true)))
      .limit(1);
    return rows.length > 0;
  },

  async clearPrimary(ex: Executor, entityType: EntityType, entityId: string): Promise<void> {
    await ex
      .update(images)
      .set({ is_primary: false })
      .where(and(ofEntity(entityType, entityId), eq(images.is_primary, true)));
  },

  async setPrimary(ex: Executor, id: string): Promise<void> {
    await ex.update(images).set({ is_primary: true }).where(eq(images.id, id));
  },

  async insert(ex: Executor, values: typeof images.$inferInsert): Promise<Image> {
    const [row] = await ex.insert(images).values(values).returning(columns);
    if (row === undefined) throw new Error('insert returned no row');
    return row;
  },

  async delete(ex: Executor, id: string): Promise<void> {
    await ex.delete(images).where(eq(images.id, id));
  },

  async newest(ex: Executor, entityType: EntityType, entityId: string): Promise<Image | undefined> {
    const rows = await ex
      .select(columns)
      .from(images)
      .where(ofEntity(entityType, entityId))
      .orderBy(desc(images.created_at), desc(images.id))
      .limit(1);
    return rows[0];
  },

  /**
   * Species and cultivars mirror their primary image in `primary_image_key`;
   * families have no such field, their primary is only the flag.
   */
  async setEntityPrimaryKey(
    ex: Executor,
    entityType: EntityType,
    entityId: string,
    key: string | null,
  ): Promise<void> {
    if (entityType === 'species') {
      await ex.update(species).set({ primary_image_key: key }).where(eq(species.id, entityId));
    } else if (entityType === 'cultivar') {
      await ex.update(cultivars).set({ primary_image_key: key }).where(eq(cultivars.id, entityId));
    }
  },

  /** Deletes the entity's image records; returns their keys. */
  async deleteForEntity(ex: Executor, entityType: EntityType, entityId: string): Promise<string[]> {
    const rows = await ex
      .delete(images)
      .where(ofEntity(entityType, entityId))
      .returning({ store_key: images.store_key });
    return rows.map((r) => r.store_key);
  },

  /** Which of these store keys have a record. */
  async existingKeys(ex: Executor, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await ex
      .select({ key: images.store_key })
      .from(images)
      .where(inArray(images.store_key, keys));
    return new Set(rows.map((r) => r.key));
  },

  /** Which of these image ids have a record. */
  async existingIds(ex: Executor, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await ex.select({ id: images.id }).from(images).where(inArray(images.id, ids));
    return new Set(rows.map((r) => r.id));
  },
};
