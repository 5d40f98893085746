import { type Static, Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from './types.js';
import { EVIDENCE_LEVELS, RELATIONSHIPS } from './vocabularies.js';

const Relationship = Type.Unsafe<(typeof RELATIONSHIPS)[number]>({
  type: 'string',
  enum: [...RELATIONSHIPS],
});
type Evidence = (typeof EVIDENCE_LEVELS)[number];
const evidenceMeaning =
  '`scientific`: a peer-reviewed study of the pair or its mechanism; `documented`: extension services, trials ' +
  'or grower reports naming the pair; `traditional`: garden lore.';
const Evidence = Type.Unsafe<Evidence>({
  type: 'string',
  enum: [...EVIDENCE_LEVELS],
  description: evidenceMeaning,
});
/** Null is a value of its own here (not assessed), so it is listed in the enum too. */
export const EvidenceOrNull = Type.Unsafe<Evidence | null>({
  type: ['string', 'null'],
  enum: [...EVIDENCE_LEVELS, null],
  description: `${evidenceMeaning} Null when not assessed.`,
});

/** A companion relation as listed for one species. */
export const CompanionRelationshipSchema = Type.Object(
  {
    id: Uuid,
    species_a_id: Uuid,
    species_b_id: Uuid,
    relationship: Type.String(),
    evidence: EvidenceOrNull,
    mechanism: Nullable(Type.String()),
    source_url: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'CompanionRelationship' },
);
export type CompanionRelationship = Static<typeof CompanionRelationshipSchema>;

/** A relation plus both species' names, slugs and primary images. */
export const CompanionWithNamesSchema = Type.Object(
  {
    ...CompanionRelationshipSchema.properties,
    species_a_scientific: Type.String(),
    species_a_de: Nullable(Type.String()),
    species_a_slug: Type.String(),
    species_a_image: Nullable(Type.String({ description: "Key of species A's primary image, under /img/." })),
    species_b_scientific: Type.String(),
    species_b_de: Nullable(Type.String()),
    species_b_slug: Type.String(),
    species_b_image: Nullable(Type.String({ description: "Key of species B's primary image, under /img/." })),
  },
  { $id: 'CompanionWithNames' },
);
export type CompanionWithNames = Static<typeof CompanionWithNamesSchema>;

export const CreateCompanionSchema = Type.Object(
  {
    species_a_id: Uuid,
    species_b_id: Uuid,
    relationship: Relationship,
    evidence: Type.Optional(EvidenceOrNull),
    mechanism: Type.Optional(Nullable(Type.String({ maxLength: 5_000 }))),
    source_url: Type.Optional(Nullable(Type.String({ maxLength: 2_000, format: 'uri' }))),
  },
  { additionalProperties: false },
);
export type CreateCompanion = Static<typeof CreateCompanionSchema>;

/** Filters of the companion lists; they combine with AND. */
export const CompanionFilters = {
  relationship: Type.Optional(Relationship),
  evidence: Type.Optional(Evidence),
};

export const CompanionListQuery = Type.Object(
  {
    species: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Slug of a species on either side; an unknown slug gives an empty list.',
      }),
    ),
    ...CompanionFilters,
  },
  { additionalProperties: false },
);
export type CompanionListQuery = Static<typeof CompanionListQuery>;

export const SpeciesCompanionsQuery = Type.Object(CompanionFilters, { additionalProperties: false });
export type SpeciesCompanionsQuery = Static<typeof SpeciesCompanionsQuery>;

export const CompanionIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
