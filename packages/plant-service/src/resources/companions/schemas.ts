import { type Static, Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../schema/types.js';
import { RELATIONSHIPS } from '../../schema/vocabularies.js';

/** A companion relation as listed for one species. */
export const CompanionRelationshipSchema = Type.Object(
  {
    id: Uuid,
    species_a_id: Uuid,
    species_b_id: Uuid,
    relationship: Type.String(),
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
    relationship: Type.Unsafe<(typeof RELATIONSHIPS)[number]>({ type: 'string', enum: [...RELATIONSHIPS] }),
    mechanism: Type.Optional(Nullable(Type.String({ maxLength: 5_000 }))),
    source_url: Type.Optional(Nullable(Type.String({ maxLength: 2_000, format: 'uri' }))),
  },
  { additionalProperties: false },
);
export type CreateCompanion = Static<typeof CreateCompanionSchema>;

export const CompanionIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
