import { type Static, Type } from 'typebox';
import { createProps, flag, httpUrl, name, payloadProps, recordProps, str } from './fields.js';
import { identityFields, timestampFields } from './identity.js';

/**
 * The suppliers' fields, declared once: the table and the schemas below are derived from them. A
 * stored url is any text; a payload's must be an absolute URI.
 */
export const supplierFields = {
  name: name(),
  url: str({ payload: httpUrl }),
  country: str({ maxLength: 100 }),
  notes: str(),
  is_organic: flag(),
  is_biodynamic: flag({ description: 'Biodynamic certification (e.g. Demeter).', recordOnly: true }),
};

export const SupplierSchema = Type.Object(
  {
    ...recordProps(identityFields),
    ...recordProps(supplierFields),
    ...recordProps(timestampFields),
  },
  { $id: 'Supplier', description: 'A seed or plant supplier.' },
);
export type Supplier = Static<typeof SupplierSchema>;

export const CreateSupplierSchema = Type.Object(createProps(supplierFields), {
  additionalProperties: false,
  // From the starter dataset (data/suppliers.jsonl).
  examples: [{ name: 'Arche Noah', url: 'https://www.arche-noah.at', is_organic: true, country: 'AT' }],
});
export type CreateSupplier = Static<typeof CreateSupplierSchema>;

export const UpdateSupplierSchema = Type.Object(payloadProps(supplierFields), {
  additionalProperties: false,
});
export type UpdateSupplier = Static<typeof UpdateSupplierSchema>;

export const SupplierListSchema = Type.Array(Type.Unsafe<Supplier>({ $ref: 'Supplier#' }), {
  $id: 'SupplierList',
});
export const SupplierListQuery = Type.Object({}, { additionalProperties: false });
