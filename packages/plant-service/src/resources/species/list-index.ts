/**
 * The species list's filters, order, totals and facet counts answered from memory.
 *
 * With random filters nearly every list request is a new filter set, so the database counted the
 * filtered set (thousands of index entries) and sorted it for every page, and that was most of the
 * work of a list. Here the list's columns of every species (the filter columns, the family, the
 * hardiness range, and the position in list order, as the database sorts it) are held as compact
 * arrays, a few bytes per species; a request scans them, and the database is asked only for the
 * page's own records, by id.
 *
 * It is a cache of the database, under the same rule as the response cache: it is used only while
 * the change feed is live and no write has moved the data version since it was read, and a page
 * is served from it only if every record read for it is still the row version it held (`xmin`), so
 * a page is always one state of the data, never a mix. Whenever that fails, the list is asked of
 * the database as before. A stale index is rebuilt in the background, no sooner after the last
 * build than ten times that build took (at least a second), so a stream of writes costs the
 * database a bounded share of its time. Searches (`search=`) always go to the database.
 *
 * The same snapshot picks the best candidates of each guild group (a function, or a layer) for
 * the guild around a species, under the same rules: every group is held as its species' positions
 * best first, so a pick walks only until it has found `limit` that pass the filters.
 */
import { asc, sql } from 'drizzle-orm';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Db } from '../../db/client.js';
import {
  type Chosen,
  feedSnapshot,
  type IndexOptions,
  type InMemoryIndex,
  type RowVersion,
  type SnapshotLog,
  sameVersions,
} from '../../db/feed-snapshot.js';
import { families, species } from '../../db/tables.js';
import { UuidList, uuidAt } from '../../lib/uuid-bytes.js';
import { filterParam } from '../../schema/fields.js';
import { GUILD_FUNCTIONS, type GuildGroupKey, guildFunctionBitsSql } from '../../schema/guild-functions.js';
import { type HalfZones, zoneInterval } from '../../schema/hardiness.js';
import type { SpeciesListQuery } from '../../schema/species.js';
import {
  type Facet,
  type FacetCounts,
  INDEXED_FACETS,
  type IndexedFacet,
} from '../../schema/species-facets.js';
import { SPECIES_LIST_FILTERS, speciesFields } from '../../schema/species-fields.js';
import { byCountThenValue } from './facets.js';

type Filter = (typeof SPECIES_LIST_FILTERS)[number];
type Value = string | number | boolean | null;

/**
 * One column as numbers, one per species in list order: numbers as they are, booleans as 1 and 0,
 * texts as their index in `texts`; null as NaN, which equals nothing and is at least nothing, as
 * NULL compares in SQL.
 */
interface Column {
  cells: Float64Array;
  texts: string[];
  codes: Map<string, number>;
}

function column(): Column {
  return { cells: new Float64Array(0), texts: [], codes: new Map() };
}

function encode(col: Column, value: Value): number {
  if (value === null) return Number.NaN;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  let code = col.codes.get(value);
  if (code === undefined) {
    code = col.texts.length;
    col.texts.push(value);
    col.codes.set(value, code);
  }
  return code;
}

/** The code a query value compares with; a text no species has matches nothing. */
function probe(col: Column, value: Value): number {
  if (typeof value === 'string') return col.codes.get(value) ?? Number.NaN;
  return encode(col, value);
}

interface Snapshot {
  records: number;
  /** Per species in list order: its uuid's 16 bytes (lib/uuid-bytes.ts). */
  ids: Buffer;
  /** The row version of each species when read (a transaction id, 32 bits); a page is served only while they still hold. */
  xmins: Uint32Array;
  columns: Record<Filter | 'family' | 'hardiness_min' | 'hardiness_max', Column>;
  /** For the family and each equality filter: the positions holding each code, ascending. */
  positions: Partial<Record<'family' | Filter, Int32Array[]>>;
  /**
   * For every zone a query can name (`7`, `7a`, `7b`, keyed by its half-zone interval): the
   * positions of the species whose range covers it, ascending. A zone filter alone otherwise
   * tests every species twice: with 50,000 species, about 350 µs more per list request for a zone
   * nearly every species covers, to save its list's 200 KB.
   */
  zones: Map<string, Int32Array>;
  /** Room for the positions a selection keeps. */
  scratch: Int32Array;
  /**
   * Each guild group's species (those with the function; those of the layer with any function),
   * as positions best first: more functions first, then list order, as the guild's ranking is.
   */
  guild: Map<GuildGroupKey, Int32Array>;
}

const NONE = new Int32Array(0);

/**
 * Whether the index holds what the query filters and counts on: the planner fields' filters and
 * facets are left to the database.
 */
function indexedOnly(q: SpeciesListQuery, facets: readonly Facet[]): boolean {
  const planner =
    q.light !== undefined ||
    q.life_cycle !== undefined ||
    q.edible_part !== undefined ||
    q.exclude_legal_status !== undefined;
  return !planner && facets.every((name) => (INDEXED_FACETS as readonly string[]).includes(name));
}

/** How a facet's code reads as a value of the answer. */
const FACET_KIND: Record<IndexedFacet, 'text' | 'boolean'> = {
  plant_layer: 'text',
  family: 'text',
  native_status: 'text',
  drought_tolerance: 'text',
  nitrogen_fixer: 'boolean',
};

export interface IndexedPage extends Chosen {
  total: number;
  facets?: FacetCounts;
}

/** What a guild's candidates must pass besides their group. */
export interface GuildCandidateFilters {
  /** Ids never picked (the focal species, and those related to it). */
  excluded: readonly string[];
  /** The candidates' hardiness range must include it. */
  zone: HalfZones | null;
  nativeStatus: string | null;
}

export interface GuildPicks {
  /** The best `limit` ids of every group, best first. */
  groups: Map<GuildGroupKey, string[]>;
  /** Every id picked, once. */
  ids: string[];
  /** Whether the records read for the picks are the ones the index picked them as. */
  holds(rows: readonly RowVersion[]): boolean;
}

export interface SpeciesListIndex extends InMemoryIndex {
  /** The page from memory, or undefined when the index is not current (the database answers). */
  select(q: SpeciesListQuery, facets: readonly Facet[]): IndexedPage | undefined;
  /** The best `limit` guild candidates per group, or undefined when the index is not current. */
  guildCandidates(filters: GuildCandidateFilters, limit: number): GuildPicks | undefined;
}

/** Species read per statement while building. */
const BUILD_CHUNK = 5_000;

export function speciesListIndex(
  db: Db,
  feed: ChangeFeed,
  log: SnapshotLog,
  { buildChunk = BUILD_CHUNK, onBuilt }: IndexOptions = {},
): SpeciesListIndex {
  async function build(closed: () => boolean): Promise<Snapshot | undefined> {
    const familyRows = await db.select({ id: families.id, slug: families.slug }).from(families);
    const names = ['family', 'hardiness_min', 'hardiness_max', ...SPECIES_LIST_FILTERS] as const;
    const columns = Object.fromEntries(names.map((name) => [name, column()])) as Snapshot['columns'];
    const cells = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      (typeof names)[number],
      number[]
    >;
    // Family codes are the families' positions, so every family (even one without species) has one.
    const familyCode = new Map<string, number>();
    for (const f of familyRows) familyCode.set(f.id, encode(columns.family, f.slug));
    const ids = new UuidList(buildChunk);
    const xmins: number[] = [];
    const functionBits: number[] = [];
    // Read in list order, a chunk at a time, so that on the embedded database (which runs in this
    // thread) other requests' statements get their turns between chunks.
    let after: { name: string; id: string } | undefined;
    for (;;) {
      const rows = await db
        .select({
          id: species.id,
          name: species.name_scientific,
          xmin: sql<string>`${species}.xmin::text`,
          family_id: species.family_id,
          hardiness_min: species.hardiness_min,
          hardiness_max: species.hardiness_max,
          guild_functions: sql<number>`${guildFunctionBitsSql()}`,
          ...Object.fromEntries(SPECIES_LIST_FILTERS.map((name) => [name, species[name]])),
        })
        .from(species)
        .where(
          after === undefined
            ? undefined
            : sql`(${species.name_scientific}, ${species.id}) > (${after.name}, ${after.id})`,
        )
        .orderBy(asc(species.name_scientific), asc(species.id))
        .limit(buildChunk);
      for (const found of rows) {
        const row = found as unknown as Record<string, Value> & {
          id: string;
          xmin: string;
          family_id: string;
        };
        ids.push(row.id);
        xmins.push(Number(row.xmin));
        functionBits.push(Number(row.guild_functions ?? 0));
        cells.family.push(familyCode.get(row.family_id) ?? Number.NaN);
        for (const name of names)
          if (name !== 'family') cells[name].push(encode(columns[name], row[name] ?? null));
      }
      if (closed()) return undefined;
      const last = rows.at(-1);
      if (rows.length < buildChunk || last === undefined) break;
      after = { name: last.name, id: last.id };
    }
    const positions: Snapshot['positions'] = {};
    for (const name of names) {
      const col = columns[name];
      col.cells = Float64Array.from(cells[name]);
      if (name === 'hardiness_min' || name === 'hardiness_max') continue;
      if (name !== 'family' && speciesFields[name].filter?.by !== 'equals') continue;
      // The positions holding each code, ascending: the candidates of an equality test.
      const lists: number[][] = Array.from({ length: Math.max(col.texts.length, 2) }, () => []);
      col.cells.forEach((code, i) => {
        if (!Number.isNaN(code)) lists[code]?.push(i);
      });
      positions[name] = lists.map((list) => Int32Array.from(list));
    }
    return {
      records: ids.length,
      ids: ids.bytes(),
      xmins: Uint32Array.from(xmins),
      columns,
      positions,
      zones: zoneLists(columns.hardiness_min.cells, columns.hardiness_max.cells),
      scratch: new Int32Array(ids.length),
      guild: guildGroups(functionBits, columns.plant_layer),
    };
  }

  const snapshots = feedSnapshot(feed, build, log, 'species list index', onBuilt);
  const usable = () => snapshots.usable();

  /** Whether `rows` are exactly the records at `at`, each the row version the snapshot read. */
  const unchanged = (snap: Snapshot, at: readonly number[], rows: readonly RowVersion[]): boolean =>
    snapshots.holds(snap) &&
    sameVersions(
      at,
      rows,
      (i) => uuidAt(snap.ids, i),
      (i) => snap.xmins[i] as number,
    );

  return {
    select(q, asked) {
      if (q.search !== undefined || !indexedOnly(q, asked)) return undefined;
      const facetNames = asked as readonly IndexedFacet[];
      const snap = usable();
      if (snap === undefined) return undefined;
      const { columns } = snap;

      // The tests of the request, each a column and what its cells must be.
      // Every test is a range a cell must lie in (an equality one of width zero); NaN, a null or a
      // text no species has, lies in none, as NULL satisfies no comparison in SQL.
      const cells: Float64Array[] = [];
      const lows: number[] = [];
      const highs: number[] = [];
      const test = (col: Float64Array, low: number, high: number) => {
        cells.push(col);
        lows.push(low);
        highs.push(high);
      };
      // The species to look at: those of the smallest position list among the tests that have one.
      // Every species of that list passes its own test, so that test is not run again.
      let candidates: ArrayLike<number> | undefined;
      let passed: number[] = [];
      const narrow = (list: ArrayLike<number> | undefined, tests: number[]) => {
        const found = list ?? NONE;
        if (candidates === undefined || found.length < candidates.length) {
          candidates = found;
          passed = tests;
        }
      };
      for (const name of SPECIES_LIST_FILTERS) {
        const field = speciesFields[name];
        const value = (q as unknown as Record<string, Value | undefined>)[filterParam(name, field)];
        if (value === undefined) continue;
        const col = columns[name];
        const code = probe(col, value);
        if (field.filter?.by === 'minimum') {
          test(col.cells, code, Number.POSITIVE_INFINITY);
        } else {
          test(col.cells, code, code);
          narrow(Number.isNaN(code) ? NONE : snap.positions[name]?.[code], [cells.length - 1]);
        }
      }
      if (q.hardiness_zone !== undefined) {
        const zone = zoneInterval(q.hardiness_zone);
        if (zone === null) return undefined;
        // The species' range covers the zone: its low edge at most the zone's, its high edge at least.
        test(columns.hardiness_min.cells, Number.NEGATIVE_INFINITY, zone.min);
        test(columns.hardiness_max.cells, zone.max, Number.POSITIVE_INFINITY);
        // A zone without a list of its own (none today) is left to the two tests.
        const covering = snap.zones.get(zoneKey(zone));
        if (covering !== undefined) narrow(covering, [cells.length - 2, cells.length - 1]);
      }
      if (q.family !== undefined) {
        const code = columns.family.codes.get(q.family) ?? Number.NaN;
        test(columns.family.cells, code, code);
        narrow(Number.isNaN(code) ? NONE : snap.positions.family?.[code], [cells.length - 1]);
      }

      // Facet counts by code (codes are small whole numbers), nulls apart.
      const counted = facetNames.map((name) => ({
        name,
        cells: columns[name].cells,
        counts: new Array<number>(columns[name].texts.length + 2).fill(0),
        nulls: 0,
      }));
      // One pass per test, each keeping in place the positions that pass it: a tight loop over one
      // column at a time. The scratch array is the snapshot's own (selection is synchronous).
      const kept = snap.scratch;
      let total = 0;
      if (candidates === undefined) {
        for (let i = 0; i < snap.records; i++) kept[total++] = i;
      } else {
        kept.set(candidates);
        total = candidates.length;
      }
      for (let t = 0; t < cells.length; t++) {
        if (passed.includes(t)) continue;
        const col = cells[t] as Float64Array;
        const low = lows[t] as number;
        const high = highs[t] as number;
        let m = 0;
        for (let k = 0; k < total; k++) {
          const i = kept[k] as number;
          const cell = col[i] as number;
          if (cell >= low && cell <= high) kept[m++] = i;
        }
        total = m;
      }
      const from = (q.page - 1) * q.per_page;
      const pageAt = Array.from(kept.subarray(Math.min(from, total), Math.min(from + q.per_page, total)));
      for (const f of counted) {
        for (let k = 0; k < total; k++) {
          const code = f.cells[kept[k] as number] as number;
          if (Number.isNaN(code)) f.nulls++;
          else f.counts[code] = (f.counts[code] as number) + 1;
        }
      }

      const ids = pageAt.map((i) => uuidAt(snap.ids, i));
      const result: IndexedPage = {
        ids,
        total,
        holds: (rows) => unchanged(snap, pageAt, rows),
      };
      if (counted.length > 0) {
        result.facets = Object.fromEntries(
          counted.map(({ name, counts, nulls }) => {
            const col = columns[name];
            const entries: { value: string | boolean | null; count: number }[] = [];
            counts.forEach((count, code) => {
              if (count === 0) return;
              entries.push({
                value: FACET_KIND[name] === 'boolean' ? code === 1 : (col.texts[code] as string),
                count,
              });
            });
            if (nulls > 0) entries.push({ value: null, count: nulls });
            return [name, entries.sort(byCountThenValue)];
          }),
        ) as FacetCounts;
      }
      return result;
    },

    guildCandidates({ excluded, zone, nativeStatus }, limit) {
      const snap = usable();
      if (snap === undefined) return undefined;
      const skip = new Set(excluded);
      const native = nativeStatus === null ? undefined : probe(snap.columns.native_status, nativeStatus);
      const nativeCells = snap.columns.native_status.cells;
      const low = snap.columns.hardiness_min.cells;
      const high = snap.columns.hardiness_max.cells;
      const groups = new Map<GuildGroupKey, string[]>();
      const picked = new Set<number>();
      for (const [key, members] of snap.guild) {
        const ids: string[] = [];
        for (let k = 0; k < members.length && ids.length < limit; k++) {
          const i = members[k] as number;
          // NaN (unknown) passes neither test, as NULL passes no comparison in SQL.
          if (native !== undefined && !(nativeCells[i] === native)) continue;
          if (zone !== null && !((low[i] as number) <= zone.min && (high[i] as number) >= zone.max)) continue;
          const id = uuidAt(snap.ids, i);
          if (skip.has(id)) continue;
          ids.push(id);
          picked.add(i);
        }
        groups.set(key, ids);
      }
      const at = [...picked];
      return {
        groups,
        ids: at.map((i) => uuidAt(snap.ids, i)),
        holds: (rows) => unchanged(snap, at, rows),
      };
    },

    refresh: () => snapshots.refresh(),
    close: () => snapshots.close(),
  };
}

const zoneKey = (zone: HalfZones) => `${zone.min}-${zone.max}`;

/** The zones a query can name: 1–13, whole and halves. */
const QUERY_ZONES = Array.from({ length: 13 }, (_, n) =>
  ['', 'a', 'b'].map((half) => zoneInterval(`${n + 1}${half}`) as HalfZones),
).flat();

/** For each zone a query can name, the positions whose range covers it (NaN, unknown, covers none). */
function zoneLists(low: Float64Array, high: Float64Array): Map<string, Int32Array> {
  const lists = new Map<string, Int32Array>();
  for (const zone of QUERY_ZONES) {
    const found: number[] = [];
    for (let i = 0; i < low.length; i++) {
      if ((low[i] as number) <= zone.min && (high[i] as number) >= zone.max) found.push(i);
    }
    lists.set(zoneKey(zone), Int32Array.from(found));
  }
  return lists;
}

/**
 * Each guild group's positions, best first: species with more functions first, then in list
 * order (scientific name, then id, as the database sorts them). A species without any function
 * is in no group.
 */
function guildGroups(bits: number[], layers: Column): Map<GuildGroupKey, Int32Array> {
  // A species' score is its number of functions, as the generated guild_score counts them.
  const scores = bits.map((b) => GUILD_FUNCTIONS.reduce((n, _, bit) => n + ((b >> bit) & 1), 0));
  const ranked = scores.flatMap((score, i) => (score > 0 ? [i] : []));
  // Stable: equal scores keep list order.
  ranked.sort((a, b) => (scores[b] as number) - (scores[a] as number));
  const members = new Map<GuildGroupKey, number[]>();
  const add = (key: GuildGroupKey, i: number) => {
    const list = members.get(key);
    if (list === undefined) members.set(key, [i]);
    else list.push(i);
  };
  for (const fn of GUILD_FUNCTIONS) members.set(`function:${fn}`, []);
  for (const i of ranked) {
    GUILD_FUNCTIONS.forEach((fn, bit) => {
      if (((bits[i] as number) & (1 << bit)) !== 0) add(`function:${fn}`, i);
    });
    const layer = layers.cells[i] as number;
    if (!Number.isNaN(layer)) add(`layer:${layers.texts[layer] as string}`, i);
  }
  return new Map([...members].map(([key, list]) => [key, Int32Array.from(list)]));
}
