/**
 * Object keys of images. An original is `<entity_type>/<entity_id>/<image id>.<ext>`;
 * its resized copies sit beside it as `<image id>.w<width>.webp`, so everything an entity owns
 * shares the prefix `<entity_type>/<entity_id>/`. Only originals are served by key; copies are
 * reached through `?w=`.
 */
import type { EntityType } from '../../schema/vocabularies.js';
import type { ImageFormat } from './image-probe.js';
import type { ImageWidth } from './schemas.js';

export const FORMATS: Record<ImageFormat, { ext: string; contentType: string }> = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
};

const CONTENT_TYPE_BY_EXT: Record<string, string> = Object.fromEntries(
  Object.values(FORMATS).map((f) => [f.ext, f.contentType]),
);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ORIGINAL = new RegExp(`^(family|species|cultivar)/(${UUID})/(${UUID})\\.(jpg|png|webp)$`);
const VARIANT = new RegExp(`^(family|species|cultivar)/(${UUID})/(${UUID})\\.w(\\d+)\\.webp$`);

export interface ImageKey {
  entityType: EntityType;
  entityId: string;
  imageId: string;
  /** Original: its extension; copy: `webp`. */
  ext: string;
  /** Set for a resized copy. */
  width?: number;
}

export function entityPrefix(entityType: EntityType, entityId: string): string {
  return `${entityType}/${entityId.toLowerCase()}/`;
}

export function originalKey(entityType: EntityType, entityId: string, imageId: string, format: ImageFormat) {
  return `${entityPrefix(entityType, entityId)}${imageId}.${FORMATS[format].ext}`;
}

/** The key of an original image, or undefined for anything else (copies included). */
export function parseOriginalKey(key: string): ImageKey | undefined {
  const m = ORIGINAL.exec(key);
  if (!m) return undefined;
  return { entityType: m[1] as EntityType, entityId: m[2]!, imageId: m[3]!, ext: m[4]! };
}

export function parseVariantKey(key: string): ImageKey | undefined {
  const m = VARIANT.exec(key);
  if (!m) return undefined;
  return {
    entityType: m[1] as EntityType,
    entityId: m[2]!,
    imageId: m[3]!,
    ext: 'webp',
    width: Number(m[4]),
  };
}

export function variantKey(original: ImageKey, width: ImageWidth): string {
  return `${entityPrefix(original.entityType, original.entityId)}${original.imageId}.w${width}.webp`;
}

export function contentTypeOf(key: ImageKey): string {
  return CONTENT_TYPE_BY_EXT[key.ext] ?? 'application/octet-stream';
}
