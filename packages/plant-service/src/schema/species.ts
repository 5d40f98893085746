import { type Static, Type } from 'typebox';
import { createProps, filterParams, payloadProps, recordProps } from './fields.js';
import { HardinessZoneParam } from './hardiness-param.js';
import { identityFields, timestampFields } from './identity.js';
import { ExcludeLegalStatusParam } from './legal-status-param.js';
import { FacetCountsSchema, FacetsParam } from './species-facets.js';
import { SPECIES_LIST_FILTERS, SPECIES_PLANNER_FILTERS, speciesFields } from './species-fields.js';
import { Paginated, Paging, Uuid } from './types.js';

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

export const SpeciesListQuery = Type.Object(
  {
    ...Paging,
    family: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Family slug.' })),
    ...filterParams(speciesFields, SPECIES_LIST_FILTERS),
    ...filterParams(speciesFields, SPECIES_PLANNER_FILTERS),
    exclude_legal_status: Type.Optional(ExcludeLegalStatusParam),
    hardiness_zone: Type.Optional(HardinessZoneParam),
    facets: Type.Optional(FacetsParam),
  },
  { additionalProperties: false },
);
export type SpeciesListQuery = Static<typeof SpeciesListQuery>;
