import { numeric } from 'drizzle-orm/pg-core';
import { type Static, Type } from 'typebox';
import { cultivarFields } from './cultivar-fields.js';
import { createProps, httpUrl, num, payloadProps, recordProps, str, time } from './fields.js';
import { createdField, identityFields, idField, timestampFields } from './identity.js';
import { Paginated, Paging, Uuid } from './types.js';

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

/**
 * A cultivar–supplier link's own fields, declared once: the table and the schemas below are derived
 * from them. Stored values are as found; a payload's are bounded. `last_checked_at` comes by import.
 */
export const cultivarSupplierFields = {
  article_number: str({ payload: { maxLength: 200 } }),
  product_url: str({ payload: httpUrl }),
  // Exact to the cent.
  price_eur: {
    ...num({ payload: { minimum: 0, maximum: 1_000_000_000 } }),
    column: () => numeric({ precision: 12, scale: 2, mode: 'number' }),
  },
  pack_size: num({ payload: { exclusiveMinimum: 0 } }),
  pack_unit: str({ payload: { maxLength: 50 } }),
  last_checked_at: time({ writable: false }),
};

export const CultivarSupplierSchema = Type.Object(
  {
    ...recordProps(idField),
    cultivar_id: Uuid,
    supplier_id: Uuid,
    ...recordProps(cultivarSupplierFields),
    ...recordProps(createdField),
  },
  { $id: 'CultivarSupplier', description: 'A supplier offering a cultivar, with price and pack.' },
);
export type CultivarSupplier = Static<typeof CultivarSupplierSchema>;

export const CreateCultivarSupplierSchema = Type.Object(
  { supplier_id: Uuid, ...createProps(cultivarSupplierFields) },
  { additionalProperties: false },
);
export type CreateCultivarSupplier = Static<typeof CreateCultivarSupplierSchema>;

export const LinkParams = Type.Object({
  cid: Type.String({ format: 'uuid', description: 'Cultivar uuid.' }),
  sid: Type.String({ format: 'uuid', description: 'Supplier uuid.' }),
});
