/**
 * Guild queries. Relations of one species, or inside one set, are few; the best candidates per
 * function and per layer come from one statement of small ordered subqueries, each served by its
 * partial index (species_guild_*_idx) and stopping after `limit` rows.
 */
import { aliasedTable, and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { companions, species } from '../../db/tables.js';
import { isUuid } from '../../lib/slug.js';
import { functionPredicate, GUILD_FUNCTIONS, type GuildFunction } from '../../schema/guild-functions.js';
import type { HalfZones } from '../../schema/hardiness.js';
import { PLANT_LAYERS } from '../../schema/vocabularies.js';
import { hardinessCovers } from '../species/repository.js';
import { COMPANION_EVIDENCE, type Evidence } from './evidence.js';
import type { GuildMember } from './schemas.js';

/** A species with what the guild rules need: its functions, score and hardiness range. */
export interface SpeciesFacts extends GuildMember {
  native_status: string | null;
  guild_score: number;
  functions: GuildFunction[];
  hardiness: HalfZones | null;
}

export interface Relation {
  companion_id: string;
  relationship: string;
  mechanism: string | null;
  evidence: Evidence | null;
  a: string;
  b: string;
}

type Columns = typeof species;

function factColumns(t: Columns, qualifier: string) {
  return {
    id: t.id,
    slug: t.slug,
    name_scientific: t.name_scientific,
    name_en: t.name_en,
    name_de: t.name_de,
    plant_layer: t.plant_layer,
    primary_image_key: t.primary_image_key,
    native_status: t.native_status,
    guild_score: t.guild_score,
    hardiness_min: t.hardiness_min,
    hardiness_max: t.hardiness_max,
    ...Object.fromEntries(
      GUILD_FUNCTIONS.map((fn) => [
        `is_${fn}`,
        sql<boolean>`${functionPredicate(fn, qualifier)}`.as(`is_${fn}`),
      ]),
    ),
  };
}

function toFacts(row: Record<string, unknown>): SpeciesFacts {
  const min = row.hardiness_min as number | null;
  const max = row.hardiness_max as number | null;
  return {
    id: row.id as string,
    slug: row.slug as string,
    name_scientific: row.name_scientific as string,
    name_en: row.name_en as string | null,
    name_de: row.name_de as string | null,
    plant_layer: row.plant_layer as string | null,
    primary_image_key: row.primary_image_key as string | null,
    native_status: row.native_status as string | null,
    guild_score: Number(row.guild_score ?? 0),
    functions: GUILD_FUNCTIONS.filter((fn) => row[`is_${fn}`] === true || row[`is_${fn}`] === 't'),
    hardiness: min === null || max === null ? null : { min: Number(min), max: Number(max) },
  };
}

const other = aliasedTable(species, 'other');

export interface CandidateFilters {
  hardinessZone?: string | undefined;
  nativeStatus?: string | undefined;
}

/** A function or layer group of candidates, as the statement labels its rows. */
export type GroupKey = `function:${GuildFunction}` | `layer:${string}`;

export const guildRepository = {
  async findSpecies(ex: Executor, refs: string[]): Promise<SpeciesFacts[]> {
    const ids = refs.filter(isUuid).map((r) => r.toLowerCase());
    const slugs = refs.filter((r) => !isUuid(r));
    const rows = await ex
      .select(factColumns(species, '"species".'))
      .from(species)
      .where(
        or(
          ids.length > 0 ? inArray(species.id, ids) : undefined,
          slugs.length > 0 ? inArray(species.slug, slugs) : undefined,
        ),
      );
    return rows.map((r) => toFacts(r as Record<string, unknown>));
  },

  /** Every relation of `speciesId`, with the species on the other side. */
  async relationsOf(ex: Executor, speciesId: string): Promise<{ relation: Relation; other: SpeciesFacts }[]> {
    const rows = await ex
      .select({
        ...factColumns(other, '"other".'),
        companion_id: companions.id,
        relationship: companions.relationship,
        mechanism: companions.mechanism,
        evidence: COMPANION_EVIDENCE,
        a: companions.species_a_id,
        b: companions.species_b_id,
      })
      .from(companions)
      .innerJoin(
        other,
        sql`${other.id} = case when ${companions.species_a_id} = ${speciesId} then ${companions.species_b_id} else ${companions.species_a_id} end`,
      )
      .where(or(eq(companions.species_a_id, speciesId), eq(companions.species_b_id, speciesId)));
    return rows.map((r) => ({ relation: toRelation(r), other: toFacts(r as Record<string, unknown>) }));
  },

  /** Beneficial and antagonistic relations with both species in `ids`. */
  async relationsAmong(ex: Executor, ids: string[]): Promise<Relation[]> {
    const rows = await ex
      .select({
        companion_id: companions.id,
        relationship: companions.relationship,
        mechanism: companions.mechanism,
        evidence: COMPANION_EVIDENCE,
        a: companions.species_a_id,
        b: companions.species_b_id,
      })
      .from(companions)
      .where(
        and(
          inArray(companions.species_a_id, ids),
          inArray(companions.species_b_id, ids),
          inArray(companions.relationship, ['beneficial', 'antagonistic']),
        ),
      )
      .orderBy(companions.created_at, companions.id);
    return rows.map(toRelation);
  },

  /**
   * The best `limit` candidates of every function and every layer by the species' own score
   * (functions, then scientific name, then id), leaving out `excluded` ids and anything that
   * fails the filters. A layer's candidates need at least one function.
   */
  async topByGroup(
    ex: Executor,
    excluded: string[],
    filters: CandidateFilters,
    limit: number,
  ): Promise<Map<GroupKey, SpeciesFacts[]>> {
    const common: SQL[] = [
      sql`${species.id} not in (${sql.join(
        excluded.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ];
    if (filters.hardinessZone !== undefined) common.push(hardinessCovers(filters.hardinessZone));
    if (filters.nativeStatus !== undefined) common.push(eq(species.native_status, filters.nativeStatus));
    const groups: [GroupKey, SQL][] = [
      ...GUILD_FUNCTIONS.map((fn): [GroupKey, SQL] => [`function:${fn}`, functionPredicate(fn)]),
      ...PLANT_LAYERS.map((layer): [GroupKey, SQL] => [
        `layer:${layer}`,
        sql`${species.plant_layer} = ${layer} and ${species.guild_score} > 0`,
      ]),
    ];
    const { id, slug, name_scientific, name_en, name_de, plant_layer, primary_image_key, native_status } =
      species;
    const plain = {
      id,
      slug,
      name_scientific,
      name_en,
      name_de,
      plant_layer,
      primary_image_key,
      native_status,
    };
    const list = sql.join(
      [
        ...Object.entries({ ...plain, guild_score: species.guild_score }).map(
          ([name, column]) => sql`${column} as ${sql.identifier(name)}`,
        ),
        sql`${species.hardiness_min} as hardiness_min, ${species.hardiness_max} as hardiness_max`,
        ...GUILD_FUNCTIONS.map(
          (fn) => sql`${functionPredicate(fn, '"species".')} as ${sql.identifier(`is_${fn}`)}`,
        ),
      ],
      sql`, `,
    );
    const parts = groups.map(
      ([key, predicate]) => sql`(select ${key}::text as group_key, ${list} from ${species}
        where ${predicate} and ${sql.join(common, sql` and `)}
        order by ${species.guild_score} desc nulls last, ${species.name_scientific}, ${species.id}
        limit ${limit})`,
    );
    const result = await ex.execute(sql.join(parts, sql` union all `));
    const { rows } = result as unknown as { rows: Record<string, unknown>[] };
    const byGroup = new Map<GroupKey, SpeciesFacts[]>();
    for (const row of rows) {
      const key = row.group_key as GroupKey;
      byGroup.set(key, [...(byGroup.get(key) ?? []), toFacts(row)]);
    }
    return byGroup;
  },
};

function toRelation(r: {
  companion_id: string;
  relationship: string;
  mechanism: string | null;
  evidence: unknown;
  a: string;
  b: string;
}): Relation {
  return {
    companion_id: r.companion_id,
    relationship: r.relationship,
    mechanism: r.mechanism,
    evidence: (r.evidence ?? null) as Evidence | null,
    a: r.a,
    b: r.b,
  };
}
