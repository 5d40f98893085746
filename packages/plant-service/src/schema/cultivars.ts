import { type Static, Type } from 'typebox';
import { cultivarFields } from './cultivar-fields.js';
import { createProps, payloadProps, recordProps } from './fields.js';
import { identityFields, timestampFields } from './identity.js';
import { Nullable, Paginated, Paging, Timestamp, Uuid } from './types.js';

export const CultivarSchema = Type.Object(
  {
    ...recordProps(identityFields),
    species_id: Uuid,
    ...recordProps(cultivarFields),
    ...recordProps(timestampFields),
  },
  { $id: 'Cultivar', description: 'A cultivar. Every field is present; null when unknown.' },
);
export type Cultivar = Static<typeof CultivarSchema>;

export const CreateCultivarSchema = Type.Object(
  {
    species_id: Uuid,
    ...createProps(cultivarFields),
  },
  {
    additionalProperties: false,
    // From the starter dataset (data/cultivars.jsonl); species_id is the id of `malus-domestica`.
    examples: [
      {
        species_id: '5e1f4c3a-8d2b-4a7e-b6c9-3f0d1e2a4b58',
        name: 'Berner Rosen',
        description:
          'Swiss apple found in the canton of Bern in the late 19th century, with dark red, aromatic fruits.',
        is_organic: false,
        perennial: true,
      },
    ],
  },
);
export type CreateCultivar = Static<typeof CreateCultivarSchema>;

export const UpdateCultivarSchema = Type.Object(
  {
    species_id: Type.Optional(Uuid),
    ...payloadProps(cultivarFields),
  },
  { additionalProperties: false },
);
export type UpdateCultivar = Static<typeof UpdateCultivarSchema>;

export const CultivarPageSchema = Paginated(Type.Unsafe<Cultivar>({ $ref: 'Cultivar#' }), 'CultivarPage');

export const CultivarListQuery = Type.Object(
  {
    ...Paging,
    species: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Species slug.' })),
  },
  { additionalProperties: false },
);
export type CultivarListQuery = Static<typeof CultivarListQuery>;

export const CultivarSupplierSchema = Type.Object(
  {
    id: Uuid,
    cultivar_id: Uuid,
    supplier_id: Uuid,
    article_number: Nullable(Type.String()),
    product_url: Nullable(Type.String()),
    price_eur: Nullable(Type.Number()),
    pack_size: Nullable(Type.Number()),
    pack_unit: Nullable(Type.String()),
    last_checked_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Timestamp,
  },
  { $id: 'CultivarSupplier', description: 'A supplier offering a cultivar, with price and pack.' },
);
export type CultivarSupplier = Static<typeof CultivarSupplierSchema>;

export const CreateCultivarSupplierSchema = Type.Object(
  {
    supplier_id: Uuid,
    article_number: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    product_url: Type.Optional(Nullable(Type.String({ maxLength: 2_000, format: 'uri' }))),
    price_eur: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000 }))),
    pack_size: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0 }))),
    pack_unit: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false },
);
export type CreateCultivarSupplier = Static<typeof CreateCultivarSupplierSchema>;

export const LinkParams = Type.Object({
  cid: Type.String({ format: 'uuid', description: 'Cultivar uuid.' }),
  sid: Type.String({ format: 'uuid', description: 'Supplier uuid.' }),
});
