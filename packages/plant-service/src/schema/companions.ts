import { text } from 'drizzle-orm/pg-core';
import { type Static, Type } from 'typebox';
import { createProps, filtered, filterParams, httpUrl, oneOf, recordProps, str } from './fields.js';
import { createdField, idField } from './identity.js';
import { Nullable, Uuid } from './types.js';
import { EVIDENCE_LEVELS, RELATIONSHIPS } from './vocabularies.js';

const evidenceMeaning =
  '`scientific`: a peer-reviewed study of the pair or its mechanism; `documented`: extension services, trials ' +
  'or grower reports naming the pair; `traditional`: garden lore.';

/**
 * A companion relation's own fields, declared once: the table, the schemas below and the list
 * filters are derived from them. A stored relationship may be any word; a payload names one of the
 * vocabulary's.
 */
export const companionFields = {
  relationship: filtered(
    {
      schema: Type.String(),
      input: Type.Unsafe<(typeof RELATIONSHIPS)[number]>({ type: 'string', enum: [...RELATIONSHIPS] }),
      column: () => text().notNull(),
      writable: true,
      presence: 'required',
    } as const,
    'equals',
  ),
  evidence: filtered(
    // Null is a value of its own here (not assessed), so the vocabulary lists it too.
    { ...oneOf(EVIDENCE_LEVELS, { description: evidenceMeaning }), nullMeaning: 'Null when not assessed.' },
    'equals',
    { description: evidenceMeaning },
  ),
  mechanism: str({ payload: { maxLength: 5_000 } }),
  source_url: str({ payload: httpUrl }),
};

/** The fields the companion lists filter on, in the order of their query parameters. */
export const COMPANION_LIST_FILTERS = ['relationship', 'evidence'] as const;

/** A companion relation as listed for one species. */
export const CompanionRelationshipSchema = Type.Object(
  {
    ...recordProps(idField),
    species_a_id: Uuid,
    species_b_id: Uuid,
    ...recordProps(companionFields),
    ...recordProps(createdField),
  },
  { $id: 'CompanionRelationship' },
);
export type CompanionRelationship = Static<typeof CompanionRelationshipSchema>;

export const EvidenceOrNull = CompanionRelationshipSchema.properties.evidence;

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
  { species_a_id: Uuid, species_b_id: Uuid, ...createProps(companionFields) },
  { additionalProperties: false },
);
export type CreateCompanion = Static<typeof CreateCompanionSchema>;

/** Filters of the companion lists; they combine with AND. */
const CompanionFilters = filterParams(companionFields, COMPANION_LIST_FILTERS);

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
