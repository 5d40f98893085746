import { type Static, Type } from 'typebox';
import { filterParams, recordProps } from '../../schema/fields.js';
import { GUILD_FUNCTIONS } from '../../schema/guild-functions.js';
import { HardinessZoneParam } from '../../schema/hardiness-param.js';
import { LegalStatusItem, speciesFields } from '../../schema/species-fields.js';
import { Nullable, Ref, Uuid } from '../../schema/types.js';
import { PLANT_LAYERS } from '../../schema/vocabularies.js';
import { EvidenceSchema } from './evidence.js';

const enumOf = (values: readonly string[]) => Type.Unsafe<string>({ type: 'string', enum: [...values] });
const byName = <T extends Parameters<typeof Type.Object>[0][string]>(names: readonly string[], value: T) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, value])) as Record<string, T>);

/** A species as a guild answer names it. */
export const GuildMemberSchema = Type.Object(
  {
    id: Uuid,
    slug: Type.String(),
    name_scientific: Type.String(),
    name_en: Nullable(Type.String()),
    name_de: Nullable(Type.String()),
    plant_layer: Nullable(Type.String()),
    primary_image_key: Nullable(Type.String({ description: 'Key of the primary image, under /img/.' })),
    // As the species record has them, so a planner sees them where the species is suggested.
    ...recordProps({ legal_status: speciesFields.legal_status, hazards: speciesFields.hazards }),
  },
  { $id: 'GuildMember' },
);
export type GuildMember = Static<typeof GuildMemberSchema>;

const CompanionReason = Type.Object(
  {
    companion_id: Uuid,
    relationship: Type.Literal('beneficial'),
    mechanism: Nullable(Type.String()),
    evidence: EvidenceSchema,
  },
  { description: 'The beneficial relation with the focal species; null when there is none.' },
);

export const GuildCandidateSchema = Type.Object(
  {
    ...GuildMemberSchema.properties,
    score: Type.Integer({ minimum: 1, description: 'See "Guilds" in the API description.' }),
    reasons: Type.Object({
      companion: Nullable(CompanionReason),
      functions: Type.Array(enumOf(GUILD_FUNCTIONS), { description: 'The guild functions the species has.' }),
    }),
  },
  { $id: 'GuildCandidate' },
);
export type GuildCandidate = Static<typeof GuildCandidateSchema>;

const AvoidSchema = Type.Object({
  ...GuildMemberSchema.properties,
  companion_id: Uuid,
  mechanism: Nullable(Type.String()),
  evidence: EvidenceSchema,
});
export type GuildAvoid = Static<typeof AvoidSchema>;

const ExcludedSchema = Type.Object({
  ...GuildMemberSchema.properties,
  reasons: Type.Array(LegalStatusItem, { minItems: 1, description: 'The legal statuses that keep it out.' }),
});
export type GuildExcluded = Static<typeof ExcludedSchema>;

/** An ISO 3166-1 alpha-2 country code, upper case. */
export const CountryParam = Type.String({
  pattern: '^[A-Z]{2}$',
  description:
    'ISO 3166-1 alpha-2 code of the country the guild is planted in (upper case, e.g. `CH`, `DE`): species ' +
    '`banned` or `sale_banned` there are not candidates either.',
});

export const GuildSchema = Type.Object(
  {
    species: Ref(GuildMemberSchema),
    hardiness_zone: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'The `country` asked for; null without it.' })),
    functions: byName(GUILD_FUNCTIONS, Type.Array(Ref(GuildCandidateSchema))),
    layers: byName(PLANT_LAYERS, Type.Array(Ref(GuildCandidateSchema))),
    avoid: Type.Array(AvoidSchema, {
      description: 'Species antagonistic to the focal one, by scientific name.',
    }),
    excluded: Type.Array(ExcludedSchema, {
      description:
        'Species that would be candidates (a beneficial relation with the focal species or a guild function, ' +
        'and passing the filters) but that the law keeps out, by scientific name, each with the statuses ' +
        'that do: on the EU Union list of invasive species, or, with `country`, banned or banned from sale there.',
    }),
  },
  { $id: 'Guild' },
);
export type Guild = Static<typeof GuildSchema>;

export const GuildQuery = Type.Object(
  {
    hardiness_zone: Type.Optional(HardinessZoneParam),
    // The species list's filter, the same parameter.
    ...filterParams(speciesFields, ['native_status']),
    country: Type.Optional(CountryParam),
    limit: Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Candidates per group (1–20).' }),
  },
  { additionalProperties: false },
);
export type GuildQuery = Static<typeof GuildQuery>;

export const GuildCheckBodySchema = Type.Object(
  {
    species: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 2,
      maxItems: 50,
      description: 'Slugs or uuids; the same species twice counts once.',
    }),
    hardiness_zone: Type.Optional(HardinessZoneParam),
  },
  { additionalProperties: false },
);
export type GuildCheckBody = Static<typeof GuildCheckBodySchema>;

const PairSchema = Type.Object({
  companion_id: Uuid,
  species_a: Ref(GuildMemberSchema),
  species_b: Ref(GuildMemberSchema),
  mechanism: Nullable(Type.String()),
  evidence: EvidenceSchema,
});
export type GuildPair = Static<typeof PairSchema>;

const Members = Type.Array(Ref(GuildMemberSchema));

export const GuildCheckSchema = Type.Object(
  {
    species: Type.Array(Ref(GuildMemberSchema), {
      description: 'The set, each species once, in the order first given.',
    }),
    conflicts: Type.Array(PairSchema, { description: 'Antagonistic pairs inside the set.' }),
    synergies: Type.Array(PairSchema, { description: 'Beneficial pairs inside the set.' }),
    layers: Type.Record(Type.String(), Members, { description: 'Layer → members; only layers present.' }),
    missing_layers: Type.Array(enumOf(PLANT_LAYERS)),
    roles: Type.Record(Type.String(), Members, {
      description: 'Guild function → members; only roles present.',
    }),
    missing_roles: Type.Array(enumOf(GUILD_FUNCTIONS)),
    outside_zone: Type.Array(Ref(GuildMemberSchema), {
      description: 'Members whose hardiness range does not cover all of `hardiness_zone` (empty without it).',
    }),
    zone_unknown: Type.Array(Ref(GuildMemberSchema), {
      description: 'Members without a hardiness range, when `hardiness_zone` is given (empty without it).',
    }),
    legal_status: Type.Array(Ref(GuildMemberSchema), {
      description:
        'Members with a legal status in any jurisdiction (an invasive species of the EU Union list, banned, ' +
        'banned from sale, protected), each with its `legal_status`, in set order.',
    }),
    hazards: Type.Array(Ref(GuildMemberSchema), {
      description: 'Members with known hazards, each with its `hazards`, in set order.',
    }),
  },
  { $id: 'GuildCheck' },
);
export type GuildCheck = Static<typeof GuildCheckSchema>;
