import { type Static, Type } from 'typebox';
import { createProps, name, payloadProps, recordProps, str } from './fields.js';
import { identityFields, timestampFields } from './identity.js';
import { Paginated, Paging } from './types.js';

/** The families' fields, declared once: the table and the schemas below are derived from them. */
export const familyFields = {
  name_scientific: name({ search: 'A' }),
  name_en: str({ maxLength: 300, search: 'A' }),
  name_de: str({ maxLength: 300, search: 'A' }),
  description: str({ search: 'C' }),
};

export const FamilySchema = Type.Object(
  {
    ...recordProps(identityFields),
    ...recordProps(familyFields),
    ...recordProps(timestampFields),
  },
  { $id: 'Family', description: 'A botanical family.' },
);
export type Family = Static<typeof FamilySchema>;

export const CreateFamilySchema = Type.Object(createProps(familyFields), {
  additionalProperties: false,
  // From the starter dataset (data/families.jsonl).
  examples: [
    {
      name_scientific: 'Apiaceae',
      name_en: 'carrot family',
      name_de: 'Doldenblütler',
      description: 'A large family of aromatic herbs with flowers in umbels and hollow stems.',
    },
  ],
});
export type CreateFamily = Static<typeof CreateFamilySchema>;

export const UpdateFamilySchema = Type.Object(payloadProps(familyFields), { additionalProperties: false });
export type UpdateFamily = Static<typeof UpdateFamilySchema>;

export const FamilyPageSchema = Paginated(Type.Unsafe<Family>({ $ref: 'Family#' }), 'FamilyPage');
export const FamilyListQuery = Type.Object(Paging, { additionalProperties: false });
export type FamilyListQuery = Static<typeof FamilyListQuery>;
