/**
 * The cultivar list's order, species filter and totals answered from memory.
 *
 * Nearly every cultivar list request is a new URL (`species=` one of thousands of species, or a
 * page deep into the whole list), so the database planned a statement, counted the species'
 * cultivars, and for a deep page walked every entry before it (page 200 reads 4,000 index
 * entries) on every request. Here every cultivar's id and row version are held in list order
 * (name, then id, as the database sorts them), with the positions of each species' cultivars; a
 * request slices them, and the database is asked only for the page's own records, by id.
 *
 * It is a cache of the database under the rules of the species list index (feed-snapshot.ts): used
 * only while the change feed is live and no write has moved the data version since it was read,
 * and a page is served only if every record read for it is still the row version it held, so a
 * page is always one state of the data. Otherwise, and always for `search=`, the database answers.
 */
import { sql } from 'drizzle-orm';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Db } from '../../db/client.js';
import {
  type Chosen,
  feedSnapshot,
  type IndexOptions,
  type InMemoryIndex,
  type SnapshotLog,
  sameVersions,
} from '../../db/feed-snapshot.js';
import { cultivars, species } from '../../db/tables.js';
import { UuidList, uuidAt } from '../../lib/uuid-bytes.js';
import type { CultivarListQuery } from '../../schema/cultivars.js';

interface Snapshot {
  records: number;
  /** Per position in list order: the cultivar's uuid (16 bytes each). */
  ids: Buffer;
  /** Per position: the row version read (a transaction id, 32 bits). */
  xmins: Uint32Array;
  /** Each species slug that has cultivars, and its number in `starts`. */
  speciesCodes: Map<string, number>;
  /**
   * The positions of species k's cultivars are bySpecies[starts[k]] .. bySpecies[starts[k + 1] - 1],
   * ascending: one array for all species, not one small array each.
   */
  starts: Int32Array;
  bySpecies: Int32Array;
}

export interface CultivarPage extends Chosen {
  total: number;
}

export interface CultivarListIndex extends InMemoryIndex {
  /** The page from memory, or undefined when the index is not current (the database answers). */
  select(q: CultivarListQuery): CultivarPage | undefined;
}

/** Cultivars read per statement while building. */
const BUILD_CHUNK = 5_000;

export function cultivarListIndex(
  db: Db,
  feed: ChangeFeed,
  log: SnapshotLog,
  { buildChunk = BUILD_CHUNK, onBuilt }: IndexOptions = {},
): CultivarListIndex {
  async function build(closed: () => boolean): Promise<Snapshot | undefined> {
    const ids = new UuidList(buildChunk);
    const xmins: number[] = [];
    const codes: number[] = [];
    const speciesCodes = new Map<string, number>();
    // Read in list order, a chunk at a time, so that on the embedded database (which runs in this
    // thread) other requests' statements get their turns between chunks.
    let after: { name: string; id: string } | undefined;
    for (;;) {
      const rows = await db
        .select({
          id: cultivars.id,
          name: cultivars.name,
          xmin: sql<string>`${cultivars}.xmin::text`,
          species: species.slug,
        })
        .from(cultivars)
        .innerJoin(species, sql`${species.id} = ${cultivars.species_id}`)
        .where(
          after === undefined
            ? undefined
            : sql`(${cultivars.name}, ${cultivars.id}) > (${after.name}, ${after.id})`,
        )
        .orderBy(cultivars.name, cultivars.id)
        .limit(buildChunk);
      for (const row of rows) {
        ids.push(row.id);
        xmins.push(Number(row.xmin));
        let code = speciesCodes.get(row.species);
        if (code === undefined) {
          code = speciesCodes.size;
          speciesCodes.set(row.species, code);
        }
        codes.push(code);
      }
      if (closed()) return undefined;
      const last = rows.at(-1);
      if (rows.length < buildChunk || last === undefined) break;
      after = { name: last.name, id: last.id };
    }
    // Counting sort of the positions by species: ascending within each species.
    const starts = new Int32Array(speciesCodes.size + 1);
    for (const code of codes) starts[code + 1] = (starts[code + 1] as number) + 1;
    for (let k = 0; k < speciesCodes.size; k++)
      starts[k + 1] = (starts[k + 1] as number) + (starts[k] as number);
    const next = starts.slice(0, -1);
    const bySpecies = new Int32Array(codes.length);
    codes.forEach((code, at) => {
      bySpecies[next[code] as number] = at;
      next[code] = (next[code] as number) + 1;
    });
    return {
      records: codes.length,
      ids: ids.bytes(),
      xmins: Uint32Array.from(xmins),
      speciesCodes,
      starts,
      bySpecies,
    };
  }

  const snapshots = feedSnapshot(feed, build, log, 'cultivar list index', onBuilt);

  return {
    select(q) {
      if (q.search !== undefined) return undefined;
      const snap = snapshots.usable();
      if (snap === undefined) return undefined;
      const from = (q.page - 1) * q.per_page;
      let at: number[];
      let total: number;
      if (q.species === undefined) {
        total = snap.records;
        at = [];
        for (let i = from; i < Math.min(from + q.per_page, total); i++) at.push(i);
      } else {
        // A slug no cultivar's species has (unknown, or a species without cultivars): empty.
        const code = snap.speciesCodes.get(q.species);
        const first = code === undefined ? 0 : (snap.starts[code] as number);
        const end = code === undefined ? 0 : (snap.starts[code + 1] as number);
        total = end - first;
        at = Array.from(
          snap.bySpecies.subarray(Math.min(first + from, end), Math.min(first + from + q.per_page, end)),
        );
      }
      return {
        ids: at.map((i) => uuidAt(snap.ids, i)),
        total,
        holds: (rows) =>
          snapshots.holds(snap) &&
          sameVersions(
            at,
            rows,
            (i) => uuidAt(snap.ids, i),
            (i) => snap.xmins[i] as number,
          ),
      };
    },
    refresh: () => snapshots.refresh(),
    close: () => snapshots.close(),
  };
}
