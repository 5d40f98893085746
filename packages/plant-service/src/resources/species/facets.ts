/**
 * Facet counts for the species list: one grouped count over the list's own WHERE clause, with a
 * grouping set per facet so the filtered set is read once however many facets are asked for.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { families, species } from '../../db/tables.js';
import { BadRequest } from '../../errors.js';
import { FACETS, type Facet, type FacetCounts } from '../../schema/species-facets.js';

/** The facets with one value per species, counted together by grouping sets. */
const COLUMNS: Partial<Record<Facet, SQL>> = {
  plant_layer: sql`${species.plant_layer}`,
  family: sql`${families.slug}`,
  native_status: sql`${species.native_status}`,
  drought_tolerance: sql`${species.drought_tolerance}`,
  nitrogen_fixer: sql`${species.nitrogen_fixer}`,
  life_cycle: sql`${species.life_cycle}`,
};

/**
 * The facets of list fields, each counted by its own statement over the values the lists hold: a
 * species without a list (unknown) counts under null, an empty list under nothing.
 */
const LIST_VALUES: Partial<Record<Facet, SQL>> = {
  light: sql`unnest(coalesce(${species.light}::text[], array[null]::text[]))`,
  edible_part: sql`unnest(case when ${species.edible_parts} is null then array[null]::text[]
    else array(select distinct e ->> 'part' from jsonb_array_elements(${species.edible_parts}::jsonb) e) end)`,
};

/** `plant_layer,family` → the facet names, each once; an unknown or empty name is a 400. */
export function parseFacets(text: string): Facet[] {
  const names = new Set<Facet>();
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (!(FACETS as readonly string[]).includes(name)) {
      throw new BadRequest(`facets: unknown facet '${name}'; known: ${FACETS.join(', ')}`, {
        field: 'facets',
        in: 'query',
      });
    }
    names.add(name as Facet);
  }
  return [...names];
}

type Value = string | boolean | null;

type Counts = Record<string, { value: Value; count: number }[]>;

export async function countFacets(
  ex: Executor,
  where: SQL | undefined,
  names: Facet[],
): Promise<FacetCounts> {
  const grouped = names.filter((name) => COLUMNS[name] !== undefined);
  const listed = names.filter((name) => LIST_VALUES[name] !== undefined);
  const [single, ...lists] = await Promise.all([
    grouped.length > 0 ? countGrouped(ex, where, grouped) : {},
    ...listed.map((name) => countListed(ex, where, name)),
  ]);
  const all: Counts = { ...single };
  listed.forEach((name, i) => {
    all[name] = lists[i] ?? [];
  });
  for (const list of Object.values(all)) list.sort(byCountThenValue);
  // In the order asked for.
  return Object.fromEntries(names.map((name) => [name, all[name] ?? []])) as FacetCounts;
}

async function countListed(ex: Executor, where: SQL | undefined, name: Facet) {
  const result = await ex.execute(sql`
    select v.value, count(*)::int as n
      from (select ${LIST_VALUES[name]} as value from ${species}
        ${where === undefined ? sql`` : sql`where ${where}`}) v
      group by v.value`);
  const { rows } = result as unknown as { rows: { value: Value; n: number }[] };
  return rows.map((row) => ({ value: row.value, count: Number(row.n) }));
}

async function countGrouped(ex: Executor, where: SQL | undefined, names: Facet[]): Promise<Counts> {
  const COLUMN = COLUMNS as Record<Facet, SQL>;
  const selected = names.map((name) => sql`${COLUMN[name]} as ${sql.identifier(name)}`);
  // grouping(x) is 0 in the rows of the grouping set that holds x: it tells which facet a row counts.
  const grouping = names.map((name) => sql`grouping(${COLUMN[name]}) as ${sql.identifier(`g_${name}`)}`);
  const sets = names.map((name) => sql`(${COLUMN[name]})`);
  const joinFamilies = names.includes('family')
    ? sql`join ${families} on ${eq(families.id, species.family_id)}`
    : sql``;
  const result = await ex.execute(sql`
    select ${sql.join([...selected, ...grouping], sql`, `)}, count(*)::int as n
      from ${species} ${joinFamilies}
      ${where === undefined ? sql`` : sql`where ${where}`}
      group by grouping sets (${sql.join(sets, sql`, `)})`);
  const { rows } = result as unknown as { rows: Record<string, unknown>[] };
  const counts = Object.fromEntries(names.map((name) => [name, [] as { value: Value; count: number }[]]));
  for (const row of rows) {
    const name = names.find((n) => Number(row[`g_${n}`]) === 0);
    if (name) counts[name]?.push({ value: row[name] as Value, count: Number(row.n) });
  }
  return counts;
}

export function byCountThenValue(
  x: { value: Value; count: number },
  y: { value: Value; count: number },
): number {
  if (x.count !== y.count) return y.count - x.count;
  if (x.value === y.value) return 0;
  if (x.value === null) return 1;
  if (y.value === null) return -1;
  return String(x.value) < String(y.value) ? -1 : 1;
}
