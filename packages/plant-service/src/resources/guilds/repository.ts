/**
 * Guild queries, each a prepared statement (db/prepared-sql.ts): a guild request runs two (the
 * species with its relations, then its candidates) and a guild check two, whatever the number of
 * groups or members. Relations of one species, or inside one set, are few; the best candidates per
 * function and per layer come from one statement of small ordered subqueries, each served by its
 * partial index (species_guild_*_idx) and stopping after `limit` ids. Lists of refs and ids travel as one JSON array parameter, so each statement's
 * text is the same for any number of them.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runPrepared } from '../../db/prepared-sql.js';
import { companions, species } from '../../db/tables.js';
import { isUuid } from '../../lib/slug.js';
import {
  functionPredicate,
  GUILD_FUNCTIONS,
  type GuildFunction,
  type GuildGroupKey,
} from '../../schema/guild-functions.js';
import { type HalfZones, zoneInterval } from '../../schema/hardiness.js';
import { PLANT_LAYERS } from '../../schema/vocabularies.js';
import type { Evidence } from './evidence.js';
import type { GuildMember } from './schemas.js';

/** A species with what the guild rules need: its functions, score, hardiness range and legal status. */
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

/**
 * The facts of the species aliased `alias` as SQL select items, named as toFacts reads them with
 * the same `prefix`.
 */
function factColumns(alias = 's', prefix = ''): SQL {
  return sql.join(
    [
      sql.raw(
        ['id', 'slug', 'name_scientific', 'name_en', 'name_de', 'plant_layer', 'primary_image_key']
          .concat(['native_status', 'guild_score', 'hardiness_min', 'hardiness_max'])
          .map((column) => `${alias}."${column}" as "${prefix}${column}"`)
          .join(', '),
      ),
      // As their kept text, parsed once here whichever driver reads them.
      sql.raw(
        ['legal_status', 'hazards']
          .map((column) => `${alias}."${column}"::text as "${prefix}${column}"`)
          .join(', '),
      ),
      ...GUILD_FUNCTIONS.map(
        (fn) => sql`${functionPredicate(fn, `${alias}.`)} as ${sql.identifier(`${prefix}is_${fn}`)}`,
      ),
    ],
    sql`, `,
  );
}

/** A JSON array parameter as a set of values of `type`. */
const elements = (name: string, type: 'uuid' | 'text') =>
  sql`(select value::${sql.raw(type)} from json_array_elements_text(${sql.placeholder(name)}::json))`;

const RELATION_COLUMNS = sql`c.id as companion_id, c.relationship, c.mechanism, c.evidence,
  c.species_a_id as a, c.species_b_id as b`;
/** RELATION_COLUMNS of a row without a relation. */
const NO_RELATION = sql`null::uuid, null::text, null::text, null::text, null::uuid, null::uuid`;

/**
 * The species aliased `alias` is kept out of guilds by law: it is on the EU's Union list of invasive
 * species, or it is banned or banned from sale in `country` (a text, or null for none). The tests
 * are containments on the list as jsonb, the form its index is built on.
 */
function legalBar(alias: string, country: SQL | ReturnType<typeof sql.placeholder>): SQL {
  const list = sql.raw(`(${alias}.legal_status::jsonb)`);
  // The kinds are written into the text: constants, not values of the request.
  const inCountry = (kind: 'banned' | 'sale_banned') =>
    sql`${list} @> jsonb_build_array(jsonb_build_object('kind', ${sql.raw(`'${kind}'`)}::text, 'jurisdiction', ${country}::text))`;
  return sql`(${list} @> '[{"kind":"union_list_invasive","jurisdiction":"EU"}]'::jsonb
    or (${country}::text is not null and (${inCountry('banned')} or ${inCountry('sale_banned')})))`;
}

const FACT_KEYS = [
  'id',
  'slug',
  'name_scientific',
  'name_en',
  'name_de',
  'plant_layer',
  'primary_image_key',
  'native_status',
  'guild_score',
  'hardiness_min',
  'hardiness_max',
  'legal_status',
  'hazards',
  ...GUILD_FUNCTIONS.map((fn) => `is_${fn}` as const),
] as const;
type FactKey = (typeof FACT_KEYS)[number];

/** The column names toFacts reads, per prefix, written once rather than for every cell of every row. */
const prefixedKeys = new Map<string, Record<FactKey, string>>();
function keysOf(prefix: string): Record<FactKey, string> {
  let keys = prefixedKeys.get(prefix);
  if (keys === undefined) {
    keys = Object.fromEntries(FACT_KEYS.map((key) => [key, `${prefix}${key}`])) as Record<FactKey, string>;
    prefixedKeys.set(prefix, keys);
  }
  return keys;
}

const parsed = (text: unknown) => (typeof text === 'string' ? JSON.parse(text) : null);

function toFacts(row: Record<string, unknown>, prefix = ''): SpeciesFacts {
  const k = keysOf(prefix);
  const min = row[k.hardiness_min] as number | null;
  const max = row[k.hardiness_max] as number | null;
  const has = (fn: GuildFunction) => {
    const cell = row[k[`is_${fn}`]];
    return cell === true || cell === 't';
  };
  return {
    id: row[k.id] as string,
    slug: row[k.slug] as string,
    name_scientific: row[k.name_scientific] as string,
    name_en: row[k.name_en] as string | null,
    name_de: row[k.name_de] as string | null,
    plant_layer: row[k.plant_layer] as string | null,
    primary_image_key: row[k.primary_image_key] as string | null,
    legal_status: parsed(row[k.legal_status]) as GuildMember['legal_status'],
    hazards: parsed(row[k.hazards]) as GuildMember['hazards'],
    native_status: row[k.native_status] as string | null,
    guild_score: Number(row[k.guild_score] ?? 0),
    functions: GUILD_FUNCTIONS.filter(has),
    hardiness: min === null || max === null ? null : { min: Number(min), max: Number(max) },
  };
}

export interface CandidateFilters {
  hardinessZone?: string | undefined;
  nativeStatus?: string | undefined;
}

export const guildRepository = {
  async findSpecies(db: Db, refs: string[]): Promise<SpeciesFacts[]> {
    const rows = await runPrepared<Record<string, unknown>>(
      db,
      'guild_species',
      // Two index lookups joined by union: an OR of the two sets, as a prepared statement's generic
      // plan, read the whole table instead.
      () => sql`select ${factColumns()} from ${species} s
        where s.id = any(array(
          select value from ${elements('ids', 'uuid')} ids
          union
          select sp.id from ${species} sp where sp.slug = any(array${elements('slugs', 'text')})))`,
      {
        ids: JSON.stringify(refs.filter(isUuid).map((r) => r.toLowerCase())),
        slugs: JSON.stringify(refs.filter((r) => !isUuid(r))),
      },
    );
    return rows.map((row) => toFacts(row));
  },

  /**
   * The species `ref` (a slug, or a uuid) with every relation of it and the species on the other
   * side, and the species the law keeps out of guilds (see legalBar) in `country` (null: the EU's
   * rule alone), in one statement; undefined when there is no such species. A uuid is looked up by id
   * only.
   */
  async withRelations(
    db: Db,
    ref: string,
    country: string | null = null,
  ): Promise<
    | {
        focal: SpeciesFacts;
        relations: { relation: Relation; other: SpeciesFacts }[];
        barred: SpeciesFacts[];
      }
    | undefined
  > {
    const byId = isUuid(ref);
    const rows = await runPrepared<Record<string, unknown>>(
      db,
      'guild_with_relations',
      // Two index lookups joined by union, one of them given null: an OR of the two, as a prepared
      // statement's generic plan, read the whole table. The barred species follow as rows of their
      // own, without a relation.
      () => sql`with f as (
          select * from (
            select s.* from ${species} s where s.id = ${sql.placeholder('id')}::uuid
            union all
            select s.* from ${species} s where s.slug = ${sql.placeholder('slug')}::text
          ) found limit 1)
        select ${factColumns('f', 'f_')}, ${RELATION_COLUMNS}, ${factColumns('s')}, false as barred
        from f
        left join ${companions} c on c.species_a_id = f.id or c.species_b_id = f.id
        left join ${species} s
          on s.id = case when c.species_a_id = f.id then c.species_b_id else c.species_a_id end
        union all
        select ${factColumns('f', 'f_')}, ${NO_RELATION}, ${factColumns('s')}, true
        from f join ${species} s on ${legalBar('s', sql.placeholder('country'))}`,
      {
        id: byId ? ref.toLowerCase() : null,
        slug: byId ? null : ref,
        country,
      },
    );
    const own = rows.filter((r) => r.barred !== true && r.barred !== 't');
    const [first] = own;
    if (first === undefined) return undefined;
    return {
      focal: toFacts(first, 'f_'),
      relations: own
        .filter((r) => r.companion_id !== null && r.companion_id !== undefined)
        .map((r) => ({ relation: toRelation(r), other: toFacts(r) })),
      barred: rows.filter((r) => r.barred === true || r.barred === 't').map((r) => toFacts(r)),
    };
  },

  /** Beneficial and antagonistic relations with both species in `ids`. */
  async relationsAmong(db: Db, ids: string[]): Promise<Relation[]> {
    const rows = await runPrepared<Record<string, unknown>>(
      db,
      'guild_relations_among',
      () => sql`select ${RELATION_COLUMNS} from ${companions} c
        where c.species_a_id in ${elements('ids', 'uuid')} and c.species_b_id in ${elements('ids', 'uuid')}
          and c.relationship in ('beneficial', 'antagonistic')
        order by c.created_at, c.id`,
      { ids: JSON.stringify(ids) },
    );
    return rows.map(toRelation);
  },

  /**
   * The best `limit` candidates of every function and every layer by the species' own score
   * (functions, then scientific name, then id), leaving out `excluded` ids and anything that
   * fails the filters. A layer's candidates need at least one function. One prepared statement
   * per combination of filters: the groups pick ids only, and their facts are read once.
   */
  async topByGroup(
    db: Db,
    excluded: string[],
    filters: CandidateFilters,
    limit: number,
  ): Promise<Map<GuildGroupKey, SpeciesFacts[]>> {
    const zone = filters.hardinessZone === undefined ? null : zoneInterval(filters.hardinessZone);
    if (filters.hardinessZone !== undefined && zone === null)
      throw new Error(`not a hardiness zone: ${filters.hardinessZone}`);
    const native = filters.nativeStatus ?? null;
    const name = `guild_top${zone ? '_zone' : ''}${native === null ? '' : '_native'}`;
    const rows = await runPrepared<Record<string, unknown>>(
      db,
      name,
      () => topByGroupStatement(zone !== null, native !== null),
      {
        excluded: JSON.stringify(excluded),
        limit,
        ...(zone ? { zone_min: zone.min, zone_max: zone.max } : {}),
        ...(native === null ? {} : { native }),
      },
    );
    const byGroup = new Map<GuildGroupKey, SpeciesFacts[]>();
    for (const row of rows) {
      const key = row.group_key as GuildGroupKey;
      byGroup.set(key, [...(byGroup.get(key) ?? []), toFacts(row)]);
    }
    return byGroup;
  },
};

/**
 * The statement behind topByGroup: per group a small ordered subquery served by its partial
 * index (species_guild_*_idx), stopping after `limit` ids; then the facts of those ids.
 */
function topByGroupStatement(byZone: boolean, byNative: boolean): SQL {
  const common: SQL[] = [sql`${species.id} not in ${elements('excluded', 'uuid')}`];
  if (byZone)
    common.push(
      sql`${species.hardiness_min} <= ${sql.placeholder('zone_min')} and ${species.hardiness_max} >= ${sql.placeholder('zone_max')}`,
    );
  if (byNative) common.push(sql`${species.native_status} = ${sql.placeholder('native')}`);
  const groups: [GuildGroupKey, SQL][] = [
    ...GUILD_FUNCTIONS.map((fn): [GuildGroupKey, SQL] => [`function:${fn}`, functionPredicate(fn)]),
    // The layer is written into the text so the partial index's leading column matches it.
    ...PLANT_LAYERS.map((layer): [GuildGroupKey, SQL] => [
      `layer:${layer}`,
      sql`${species.plant_layer} = ${sql.raw(`'${layer}'`)} and ${species.guild_score} > 0`,
    ]),
  ];
  const parts = groups.map(
    ([key, predicate]) => sql`(select ${sql.raw(`'${key}'`)}::text as group_key, ${species.id} as id,
        ${species.guild_score} as rank_score, ${species.name_scientific} as rank_name from ${species}
      where ${predicate} and ${sql.join(common, sql` and `)}
      order by ${species.guild_score} desc nulls last, ${species.name_scientific}, ${species.id}
      limit ${sql.placeholder('limit')})`,
  );
  return sql`select g.group_key, ${factColumns()}
    from (${sql.join(parts, sql` union all `)}) g
    join ${species} s on s.id = g.id
    order by g.group_key, g.rank_score desc nulls last, g.rank_name, g.id`;
}

function toRelation(r: Record<string, unknown>): Relation {
  return {
    companion_id: r.companion_id as string,
    relationship: r.relationship as string,
    mechanism: r.mechanism as string | null,
    evidence: (r.evidence ?? null) as Evidence | null,
    a: r.a as string,
    b: r.b as string,
  };
}
