import { type Static, Type } from 'typebox';
import { Nullable, Paginated, Paging, Timestamp, Uuid } from './types.js';

const names = {
  name_en: Type.String({ maxLength: 300 }),
  name_de: Type.String({ maxLength: 300 }),
  description: Type.String({ maxLength: 20_000 }),
};

export const FamilySchema = Type.Object(
  {
    id: Uuid,
    slug: Type.String(),
    name_scientific: Type.String(),
    name_en: Nullable(names.name_en),
    name_de: Nullable(names.name_de),
    description: Nullable(names.description),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Family', description: 'A botanical family.' },
);
export type Family = Static<typeof FamilySchema>;

const ScientificName = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const optionalNames = {
  name_en: Type.Optional(Nullable(names.name_en)),
  name_de: Type.Optional(Nullable(names.name_de)),
  description: Type.Optional(Nullable(names.description)),
};

export const CreateFamilySchema = Type.Object(
  { name_scientific: ScientificName, ...optionalNames },
  {
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
  },
);
export type CreateFamily = Static<typeof CreateFamilySchema>;

export const UpdateFamilySchema = Type.Object(
  { name_scientific: Type.Optional(ScientificName), ...optionalNames },
  { additionalProperties: false },
);
export type UpdateFamily = Static<typeof UpdateFamilySchema>;

export const FamilyPageSchema = Paginated(Type.Unsafe<Family>({ $ref: 'Family#' }), 'FamilyPage');
export const FamilyListQuery = Type.Object(Paging, { additionalProperties: false });
export type FamilyListQuery = Static<typeof FamilyListQuery>;
