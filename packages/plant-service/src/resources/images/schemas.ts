import { type Static, Type } from 'typebox';
import { httpUrl } from '../../schema/fields.js';
import { Nullable, Timestamp, Uuid } from '../../schema/types.js';
import { ENTITY_TYPES, type EntityType } from '../../schema/vocabularies.js';

export const EntityTypeSchema = Type.Unsafe<EntityType>({
  type: 'string',
  enum: [...ENTITY_TYPES],
  description: 'The kind of record the image belongs to.',
});

/** Widths /img serves resized copies in. */
export const IMAGE_WIDTHS = [160, 320, 640, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** An image's record: its entity, caption and source, plus what the upload measured (content_type, byte_size, width, height). */
export const ImageSchema = Type.Object(
  {
    id: Uuid,
    entity_type: EntityTypeSchema,
    entity_id: Uuid,
    store_key: Type.String({
      description:
        'Object key `<entity_type>/<entity_id>/<id>.<jpg|png|webp>`; the image is at /img/{store_key}.',
    }),
    caption: Nullable(Type.String()),
    source_url: Nullable(Type.String()),
    license: Nullable(Type.String()),
    is_primary: Type.Boolean(),
    content_type: Type.String({ enum: ['image/jpeg', 'image/png', 'image/webp'] }),
    byte_size: Type.Integer({ description: 'Size of the stored file in bytes.' }),
    width: Nullable(Type.Integer({ description: 'Pixels, as displayed (JPEG EXIF orientation applied).' })),
    height: Nullable(Type.Integer({ description: 'Pixels, as displayed.' })),
    created_at: Timestamp,
  },
  { $id: 'Image', description: 'An image attached to a family, species or cultivar.' },
);
export type Image = Static<typeof ImageSchema>;

export const ImageListSchema = Type.Array(Type.Unsafe<Image>({ $ref: 'Image#' }));

const BOOLEAN_TEXT = ['true', 'false', '1', '0'] as const;

/**
 * The text fields of the upload form, as multipart delivers them: strings.
 * An empty optional field counts as absent, as browsers send empty inputs.
 */
export const UploadFieldsSchema = Type.Object(
  {
    entity_type: EntityTypeSchema,
    entity_id: Type.String({
      format: 'uuid',
      description: 'Id of the family, species or cultivar.',
      examples: ['0b9d7e2c-5f4a-4e1b-9c3d-2a6f8e7b1c40'],
    }),
    caption: Type.Optional(
      Type.String({ maxLength: 2_000, examples: ['Wild carrot in flower, second year'] }),
    ),
    source_url: Type.Optional(
      Type.String({
        ...httpUrl,
        examples: ['https://commons.wikimedia.org/wiki/File:Daucus_carota_May_2008-1_edit.jpg'],
      }),
    ),
    license: Type.Optional(Type.String({ maxLength: 300, examples: ['CC BY-SA 3.0'] })),
    is_primary: Type.Optional(
      Type.Unsafe<(typeof BOOLEAN_TEXT)[number]>({
        type: 'string',
        enum: [...BOOLEAN_TEXT],
        description: '`true`/`1`: the image becomes the primary one of its record.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UploadFields = Static<typeof UploadFieldsSchema>;

/** The whole form as documented: the text fields, then the file (which must come last). */
export const UploadFormSchema = Type.Object(
  {
    ...UploadFieldsSchema.properties,
    file: Type.Unsafe<unknown>({
      type: 'string',
      format: 'binary',
      description: 'JPEG, PNG or WebP (recognised from its bytes). Must be the last part of the form.',
    }),
  },
  { additionalProperties: false },
);

export const EntityImagesParams = Type.Object({
  entity_type: EntityTypeSchema,
  entity_id: Type.String({ format: 'uuid' }),
});

export const ImageIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ImgQuery = Type.Object(
  {
    w: Type.Optional(
      Type.Integer({
        enum: [...IMAGE_WIDTHS],
        description: 'Serve a WebP copy this many pixels wide (never wider than the original).',
      }),
    ),
  },
  { additionalProperties: false },
);
