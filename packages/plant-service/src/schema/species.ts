import { type Static, Type } from 'typebox';
import { createProps, payloadProps, recordProps } from './fields.js';
import { HardinessZoneParam } from './hardiness-param.js';
import { identityFields, timestampFields } from './identity.js';
import { FacetCountsSchema, FacetsParam } from './species-facets.js';
import { speciesFields } from './species-fields.js';
import { Paginated, Paging, Uuid } from './types.js';
import { NATIVE_STATUSES, PLANT_LAYERS, TOLERANCE_LEVELS } from './vocabularies.js';

export const SpeciesSchema = Type.Object(
  {
    ...recordProps(identityFields),
    family_id: Uuid,
    ...recordProps(speciesFields),
    ...recordProps(timestampFields),
  },
  { $id: 'Species', description: 'A species. Every field is present; null when unknown.' },
);
export type Species = Static<typeof SpeciesSchema>;

export const CreateSpeciesSchema = Type.Object(
  { family_id: Uuid, ...createProps(speciesFields) },
  {
    additionalProperties: false,
    // From the starter dataset (data/species.jsonl); family_id is the id of family `apiaceae`.
    examples: [
      {
        family_id: '0b9d7e2c-5f4a-4e1b-9c3d-2a6f8e7b1c40',
        name_scientific: 'Daucus carota',
        name_en: 'Carrot',
        name_de: 'Möhre',
        description:
          'Biennial umbellifer; the cultivated carrot (subsp. sativus) is grown for its taproot. Flowering ' +
          'plants in the second year attract many beneficial insects.',
        plant_layer: 'root',
        native_status: 'native',
        drought_tolerance: 'medium',
        ph_min: 6,
        ph_max: 7,
        nitrogen_fixer: false,
      },
    ],
  },
);
export type CreateSpecies = Static<typeof CreateSpeciesSchema>;

export const UpdateSpeciesSchema = Type.Object(
  {
    family_id: Type.Optional(Uuid),
    ...payloadProps(speciesFields),
  },
  { additionalProperties: false },
);
export type UpdateSpecies = Static<typeof UpdateSpeciesSchema>;

const SpeciesPage = Paginated(Type.Unsafe<Species>({ $ref: 'Species#' }), 'SpeciesPage');

/** The page envelope; `facets` only when the query asked for them. */
export const SpeciesPageSchema = Type.Object(
  { ...SpeciesPage.properties, facets: Type.Optional(FacetCountsSchema) },
  { $id: 'SpeciesPage' },
);
export type SpeciesPage = Static<typeof SpeciesPageSchema>;

const enumOf = (values: readonly string[]) => Type.Unsafe<string>({ type: 'string', enum: [...values] });

export const SpeciesListQuery = Type.Object(
  {
    ...Paging,
    family: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Family slug.' })),
    plant_layer: Type.Optional(enumOf(PLANT_LAYERS)),
    nitrogen_fixer: Type.Optional(Type.Boolean()),
    dynamic_accumulator: Type.Optional(Type.Boolean()),
    drought_tolerance: Type.Optional(enumOf(TOLERANCE_LEVELS)),
    native_status: Type.Optional(enumOf(NATIVE_STATUSES)),
    min_nectar: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, description: 'Minimum nectar_value.' })),
    min_bees: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Minimum wild_bee_count.' }),
    ),
    hardiness_zone: Type.Optional(HardinessZoneParam),
    facets: Type.Optional(FacetsParam),
  },
  { additionalProperties: false },
);
export type SpeciesListQuery = Static<typeof SpeciesListQuery>;
