import { type Static, Type } from 'typebox';
import { recordProps } from './fields.js';
import { identityFields, timestampFields } from './identity.js';
import { Nullable } from './types.js';

const fields = {
  url: Type.String({ maxLength: 2_000, format: 'uri' }),
  country: Type.String({ maxLength: 100 }),
  notes: Type.String({ maxLength: 20_000 }),
};

export const SupplierSchema = Type.Object(
  {
    ...recordProps(identityFields),
    name: Type.String(),
    url: Nullable(Type.String()),
    is_organic: Type.Boolean(),
    is_biodynamic: Type.Boolean({ description: 'Biodynamic certification (e.g. Demeter).' }),
    country: Nullable(fields.country),
    notes: Nullable(fields.notes),
    ...recordProps(timestampFields),
  },
  { $id: 'Supplier', description: 'A seed or plant supplier.' },
);
export type Supplier = Static<typeof SupplierSchema>;

const Name = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const optional = {
  url: Type.Optional(Nullable(fields.url)),
  country: Type.Optional(Nullable(fields.country)),
  notes: Type.Optional(Nullable(fields.notes)),
  is_organic: Type.Optional(Type.Boolean()),
  is_biodynamic: Type.Optional(Type.Boolean()),
};

export const CreateSupplierSchema = Type.Object(
  { name: Name, ...optional },
  {
    additionalProperties: false,
    // From the starter dataset (data/suppliers.jsonl).
    examples: [{ name: 'Arche Noah', url: 'https://www.arche-noah.at', is_organic: true, country: 'AT' }],
  },
);
export type CreateSupplier = Static<typeof CreateSupplierSchema>;

export const UpdateSupplierSchema = Type.Object(
  { name: Type.Optional(Name), ...optional },
  { additionalProperties: false },
);
export type UpdateSupplier = Static<typeof UpdateSupplierSchema>;

export const SupplierListSchema = Type.Array(Type.Unsafe<Supplier>({ $ref: 'Supplier#' }), {
  $id: 'SupplierList',
});
export const SupplierListQuery = Type.Object({}, { additionalProperties: false });
