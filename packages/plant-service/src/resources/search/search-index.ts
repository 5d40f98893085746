/**
 * The words of every family, species and cultivar held in memory, so that a search picks its
 * records here and asks the database only to rank the description matches and word parts it
 * found and to return the records. In the database, each group read thousands of index entries
 * for every request (the words of names and descriptions share a few thousand syllables in the
 * benchmark's data, and a prefix expands to all the words it starts): most of a search's cost.
 *
 * It answers what the statements in repository.ts answer:
 *   - the records are held in the order the final result sorts ties by (name, then id), so a
 *     record's position is its tie-break;
 *   - each record's name words are its names vector's lexemes with their positions and weights, in
 *     the vector's own (byte) order, and the prefix group's relevance is ts_rank(names, query, 32)
 *     computed as PostgreSQL computes it, in single precision;
 *   - each record's text words are its search vector's lexemes (names and descriptions);
 *   - a term lies inside a record's names text exactly when it lies inside one of its name words,
 *     for terms of letters only (the only terms it is asked about: see `searchable`).
 * Where the database would take an arbitrary bounded set (the candidates of groups 2 and 3, and
 * the records of the last word of group 1's 2,000), the index takes the first in name order.
 *
 * It is a cache of the database under the rules of the species list index (feed-snapshot.ts),
 * and a search is answered from it only if every record it found is still the row version it
 * read (`xmin`).
 */
import { sql } from 'drizzle-orm';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Db } from '../../db/client.js';
import {
  feedSnapshot,
  type IndexOptions,
  type InMemoryIndex,
  type SnapshotLog,
} from '../../db/feed-snapshot.js';
import { uuidArrayText, uuidAt, uuidBytes, uuidIs } from '../../lib/uuid-bytes.js';
import { ENTITY_TYPES, type EntityType } from '../../schema/vocabularies.js';
import { MAX_LEXEMES } from './tsquery.js';

/**
 * Records read per statement while building: small enough that a chunk's parsed rows die young
 * (building does not grow the heap by more than the index holds), and that the embedded database
 * gets back to other requests' statements often.
 */
const BUILD_CHUNK = 2_000;
/** ts_rank's default weights of D, C, B and A, in single precision as PostgreSQL keeps them. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
const WEIGHT_CODE: Record<string, number> = { D: 0, C: 1, B: 2, A: 3 };
/** A position's weight sits in its top two bits, as in a tsvector. */
const POS_BITS = 14;
const POS_MASK = (1 << POS_BITS) - 1;
/** Text postings are kept as the low 16 bits of record positions, in blocks of 65,536 records. */
const BLOCK_BITS = 16;

/** A growable array of 32-bit integers, for the name entries collected while building. */
class Ints {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

interface Snapshot {
  records: number;
  /** Per record (in name, id order): its entity type's index in ENTITY_TYPES. */
  types: Uint8Array;
  /** Per record: its uuid's 16 bytes. */
  ids: Buffer;
  /** Per record: the row version read (a transaction id, 32 bits). */
  xmins: Uint32Array;
  /** Every distinct word of names and texts, in byte order. */
  words: string[];
  /** Record r's name words are entries firstEntry[r] .. firstEntry[r + 1] - 1, in word order. */
  firstEntry: Int32Array;
  /** Per entry: the word; and its positions, firstPos[e] .. firstPos[e + 1] - 1. */
  entryWord: Int32Array;
  firstPos: Int32Array;
  positions: Uint16Array;
  /** Per word: the records whose names hold it, ascending. */
  namePostings: Int32Array[];
  /**
   * Per word: the records whose text holds it, ascending, as the low bits of their positions;
   * block b of word w is textLow[textBlocks[w * blocks + b] .. textBlocks[w * blocks + b + 1]].
   */
  textLow: Uint16Array;
  textBlocks: Int32Array;
  blocks: number;
  /** For each three-letter sequence, the words containing it (word parts are found through them). */
  trigrams: Map<string, Int32Array>;
  /** Per word: bits of the terms of the running search it starts, and those it contains. */
  startMasks: Uint16Array;
  containMasks: Uint16Array;
  /** A mark per record, for collecting and counting records without clearing between searches. */
  marks: Uint32Array;
  stamp: number;
  /** A bit per record (record r is bit r & 31 of word r >> 5), all clear between searches. */
  bits: Uint32Array;
}

/** A record the index found, with its position (to check its row version) and rank. */
export interface IndexHit {
  type: EntityType;
  id: string;
  at: number;
  rank: number;
}

/** Candidates per entity type: their positions in the index. */
export type Candidates = Record<EntityType, { at: number[] }>;

export interface IndexMatches {
  /** Group 1 (every term starts a name word), best first, at most `limit`. */
  prefixed: IndexHit[];
  /** Group 2 candidates (every term inside a name, not all starting a word). */
  parts: Candidates;
  /** Group 3 candidates (the text as typed, in names or descriptions, and in neither group before). */
  described: Candidates;
  /** Whether `rows` (id, xmin, position) are the records the index found, as it read them. */
  holds(rows: readonly { id: string; xmin: string; at: number }[]): boolean;
  /** The ids of the records at `at` (candidates' positions), as a PostgreSQL array literal. */
  idsText(at: readonly number[]): string;
}

export interface SearchOptions {
  /** Group 1 reads at most this many (word, record) pairs. */
  words: number;
  /** Whether to look for word parts (group 2). */
  wordParts: boolean;
  /** At most this many candidates per entity type for groups 2 and 3. */
  partCandidates: number;
  describedCandidates: number;
  /** The last term matches texts as a prefix from this length, before as a whole word. */
  minPrefix: number;
}

export interface SearchIndex extends InMemoryIndex {
  /** The groups for `terms` (letters only), or undefined when the index is not current. */
  find(terms: string[], limit: number, options: SearchOptions): IndexMatches | undefined;
}

/** Whether a search's terms can be answered from the index: letters a–z only (their folding is lower-casing). */
export const searchable = (terms: readonly string[]): boolean => terms.every((t) => /^[A-Za-z]+$/.test(t));

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The records of all three types, `limit` at a time in (name, id) order after `after`. */
function chunkQuery(after: { name: string; id: string } | undefined, limit: number) {
  const branch = (type: EntityType, table: string, name: string) => {
    const t = sql.raw(table);
    const n = sql.raw(`"${name}"`);
    const where = after === undefined ? sql`` : sql`where (${n}, id) > (${after.name}, ${after.id}::uuid)`;
    return sql`(select ${type}::text as type, id, ${n} as name, xmin::text as xmin, names, search from ${t} ${where}
      order by ${n}, id limit ${limit})`;
  };
  return sql`select type, id, name, xmin, names::text as names, search::text as text
    from (${branch('family', 'families', 'name_scientific')}
      union all ${branch('species', 'species', 'name_scientific')}
      union all ${branch('cultivar', 'cultivars', 'name')}) x
    order by name, id limit ${limit}`;
}

/** Records handled between two turns of the event loop while building in memory. */
const YIELD_EVERY = 8_192;

/** Lets other work run (a build never holds the event loop for long); true once closed. */
async function nextTurn(closed: () => boolean): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  return closed();
}

const QUOTE = 39;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const SPACE = 32;

/**
 * Calls `visit` with each lexeme of a tsvector in its text form (`'word':1A,5 'other':2`), and
 * `position` with each of its positions and weights (a weight letter's absence is D). In that form
 * a quote in a lexeme is doubled and a backslash escapes the next character.
 */
export function parseTsvector(
  text: string,
  visit: (word: string) => void,
  position?: (pos: number, weight: number) => void,
): void {
  let i = 0;
  while (i < text.length) {
    i++; // the opening quote
    let word = '';
    let from = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        word += text.slice(from, i);
        if (text.charCodeAt(i + 1) === QUOTE) {
          word += "'";
          i += 2;
          from = i;
          continue;
        }
        i++;
        break;
      }
      if (c === BACKSLASH) {
        word += text.slice(from, i);
        from = i + 1;
        i += 2;
        continue;
      }
      i++;
    }
    visit(word);
    if (text.charCodeAt(i) === COLON) {
      i++;
      for (;;) {
        let pos = 0;
        for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i))
          pos = pos * 10 + (c - 48);
        const letter = text[i];
        const weight = letter === undefined ? 0 : (WEIGHT_CODE[letter] ?? 0);
        if (weight !== 0 || letter === 'D') i++;
        position?.(pos, weight);
        if (text.charCodeAt(i) !== COMMA) break;
        i++;
      }
    }
    if (text.charCodeAt(i) === SPACE) i++;
  }
}

/**
 * Reads every record's words a chunk at a time, straight into flat arrays (the parsed rows of one
 * chunk are garbage once it is read, so building needs little more memory than the index holds).
 */
async function readSnapshot(db: Db, closed: () => boolean, chunk: number): Promise<Snapshot | undefined> {
  const types: number[] = [];
  const idChunks: Buffer[] = [];
  const xmins: number[] = [];
  // Words get an id as first seen; they are renumbered in byte order at the end.
  const seenWords = new Map<string, number>();
  const wordId = (word: string) => {
    let w = seenWords.get(word);
    if (w === undefined) {
      w = seenWords.size;
      seenWords.set(word, w);
    }
    return w;
  };
  const firstEntry = new Ints();
  const entryWord = new Ints();
  const firstPos = new Ints();
  const positions = new Ints();
  // The texts' words, record after record (record r's from textStart[r]), one exact-size array
  // per chunk rather than one array grown by doubling, whose copies would stay behind as
  // fragmented free memory.
  const textChunks: (Uint16Array | Int32Array)[] = [];
  let textCount = 0;
  const textStart = new Ints();
  let after: { name: string; id: string } | undefined;
  for (;;) {
    const result = (await db.execute(chunkQuery(after, chunk))) as unknown as {
      rows: { type: EntityType; id: string; name: string; xmin: string; names: string; text: string }[];
    };
    const ids = Buffer.alloc(result.rows.length * 16);
    const chunkWords: number[] = [];
    result.rows.forEach((row, k) => {
      types.push(ENTITY_TYPES.indexOf(row.type));
      uuidBytes(row.id, ids, k);
      xmins.push(Number(row.xmin));
      firstEntry.push(entryWord.length);
      parseTsvector(
        row.names,
        (word) => {
          entryWord.push(wordId(word));
          firstPos.push(positions.length);
        },
        (pos, weight) => positions.push((weight << POS_BITS) | pos),
      );
      textStart.push(textCount + chunkWords.length);
      parseTsvector(row.text, (word) => chunkWords.push(wordId(word)));
    });
    idChunks.push(ids);
    // Two bytes a word while the words seen so far fit, as they do but in very large catalogues.
    textChunks.push(seenWords.size <= 0xffff ? Uint16Array.from(chunkWords) : Int32Array.from(chunkWords));
    textCount += chunkWords.length;
    if (closed()) return undefined;
    const last = result.rows.at(-1);
    if (result.rows.length < chunk || last === undefined) break;
    after = { name: last.name, id: last.id };
  }
  const records = types.length;
  firstEntry.push(entryWord.length);
  firstPos.push(positions.length);
  textStart.push(textCount);

  // Renumber the words in byte order (code point order; without surrogate pairs, which JavaScript
  // orders apart, the plain string order is the same and needs no conversion).
  const words = [...seenWords.keys()];
  if (words.some((w) => /[\uD800-\uDFFF]/.test(w))) words.sort(byteOrder);
  else words.sort();
  const renumbered = new Int32Array(words.length);
  words.forEach((word, w) => {
    renumbered[seenWords.get(word) as number] = w;
  });
  seenWords.clear();

  // Each record's name entries in word order (a vector's order), and the names' postings.
  const entries = entryWord.view();
  const starts = firstEntry.view();
  const posStarts = firstPos.view();
  const allPositions = positions.view();
  const sortedWord = new Int32Array(entries.length);
  const sortedFirstPos = new Int32Array(entries.length + 1);
  const sortedPositions = new Uint16Array(allPositions.length);
  const nameHolders: number[][] = words.map(() => []);
  let written = 0;
  const wordOf = (e: number) => renumbered[entries[e] as number] as number;
  for (let r = 0; r < records; r++) {
    if (r % YIELD_EVERY === 0 && (await nextTurn(closed))) return undefined;
    const from = starts[r] as number;
    const own: number[] = [];
    for (let e = from; e < (starts[r + 1] as number); e++) own.push(e);
    // A vector's text lists its lexemes in this order already; sorted only in case it does not.
    if (own.some((e, k) => k > 0 && wordOf(e) < wordOf(own[k - 1] as number)))
      own.sort((a, b) => wordOf(a) - wordOf(b));
    own.forEach((e, k) => {
      const w = renumbered[entries[e] as number] as number;
      sortedWord[from + k] = w;
      sortedFirstPos[from + k] = written;
      for (let p = posStarts[e] as number; p < (posStarts[e + 1] as number); p++)
        sortedPositions[written++] = allPositions[p] as number;
      nameHolders[w]?.push(r);
    });
  }
  sortedFirstPos[entries.length] = written;

  // The texts' postings by a counting sort on (word, block); records stay ascending within each.
  const blocks = Math.max(1, Math.ceil(records / (1 << BLOCK_BITS)));
  const textStarts = textStart.view();
  // Every text word in record order, through the chunks (`visit(word, record)`); false if closed.
  const forEachTextWord = async (visit: (w: number, r: number) => void) => {
    let r = 0;
    let k = 0;
    for (const chunkWords of textChunks) {
      if (await nextTurn(closed)) return false;
      for (const w of chunkWords) {
        while (k >= (textStarts[r + 1] as number)) r++;
        visit(renumbered[w] as number, r);
        k++;
      }
    }
    return true;
  };
  const textBlocks = new Int32Array(words.length * blocks + 1);
  const counted = await forEachTextWord((w, r) => {
    const at = w * blocks + (r >> BLOCK_BITS) + 1;
    textBlocks[at] = (textBlocks[at] as number) + 1;
  });
  if (!counted) return undefined;
  for (let b = 1; b < textBlocks.length; b++)
    textBlocks[b] = (textBlocks[b] as number) + (textBlocks[b - 1] as number);
  const fill = textBlocks.slice();
  const textLow = new Uint16Array(textCount);
  const filled = await forEachTextWord((w, r) => {
    const at = w * blocks + (r >> BLOCK_BITS);
    textLow[fill[at] as number] = r & 0xffff;
    fill[at] = (fill[at] as number) + 1;
  });
  if (!filled) return undefined;
  textChunks.length = 0;

  const trigramLists = new Map<string, number[]>();
  words.forEach((word, w) => {
    const own = new Set<string>();
    for (let i = 0; i + 3 <= word.length; i++) own.add(word.slice(i, i + 3));
    for (const t of own) {
      let list = trigramLists.get(t);
      if (!list) {
        list = [];
        trigramLists.set(t, list);
      }
      list.push(w);
    }
  });
  return {
    records,
    types: Uint8Array.from(types),
    ids: Buffer.concat(idChunks),
    xmins: Uint32Array.from(xmins),
    words,
    firstEntry: starts.slice(),
    entryWord: sortedWord,
    firstPos: sortedFirstPos,
    positions: sortedPositions,
    namePostings: nameHolders.map((list) => Int32Array.from(list)),
    textLow,
    textBlocks,
    blocks,
    trigrams: new Map([...trigramLists].map(([t, list]) => [t, Int32Array.from(list)])),
    startMasks: new Uint16Array(words.length),
    containMasks: new Uint16Array(words.length),
    marks: new Uint32Array(records),
    stamp: 0,
    bits: new Uint32Array(Math.ceil(records / 32)),
  };
}

/** The first index in the sorted `words` not below `term` (byte order; terms are ASCII). */
function lowerBound(words: string[], term: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((words[mid] as string) < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The words `term` starts, as a range [from, to) of word indices. */
function prefixRange(words: string[], term: string): [number, number] {
  const from = lowerBound(words, term);
  let to = from;
  while (to < words.length && (words[to] as string).startsWith(term)) to++;
  return [from, to];
}

/** The word `term` itself, as a range of at most one word. */
function exactRange(words: string[], term: string): [number, number] {
  const at = lowerBound(words, term);
  return words[at] === term ? [at, at + 1] : [at, at];
}

/** The words containing `term` anywhere. */
function wordsContaining(snap: Snapshot, term: string): Set<number> {
  let shortest: Int32Array | undefined;
  for (let i = 0; i + 3 <= term.length; i++) {
    const list = snap.trigrams.get(term.slice(i, i + 3));
    if (!list) return new Set();
    if (!shortest || list.length < shortest.length) shortest = list;
  }
  const found = new Set<number>();
  for (const w of shortest ?? []) if ((snap.words[w] as string).includes(term)) found.add(w);
  return found;
}

const f = Math.fround;
/** tsRank's last entry of each term so far, reused by every call (a search reads at most MAX_LEXEMES terms). */
const lastEntries = new Int32Array(MAX_LEXEMES);

/** ts_rank's weight of a word distance (word_distance in PostgreSQL's tsrank.c). */
function wordDistance(dist: number): number {
  if (dist > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(dist) / 1.5 - 2)));
}

/**
 * ts_rank(names, query, 32) of record `r` for a query ANDing `items` (sorted, distinct) as
 * prefixes, each given as its range of words: PostgreSQL's calc_rank in single precision.
 */
function tsRank(snap: Snapshot, r: number, items: [number, number][]): number {
  const { entryWord, firstPos, positions } = snap;
  const first = snap.firstEntry[r] as number;
  const end = snap.firstEntry[r + 1] as number;
  let res: number;
  if (items.length < 2) {
    // calc_rank_or
    res = 0;
    for (const [from, to] of items) {
      for (let e = first; e < end; e++) {
        const w = entryWord[e] as number;
        if (w < from || w >= to) continue;
        const p0 = firstPos[e] as number;
        const p1 = firstPos[e + 1] as number;
        let resj = 0;
        let wjm = -1;
        let jm = 0;
        for (let j = 0; j < p1 - p0; j++) {
          const wp = WEIGHTS[(positions[p0 + j] as number) >> POS_BITS] as number;
          resj = f(resj + f(wp / f((j + 1) * (j + 1))));
          if (wp > wjm) {
            wjm = wp;
            jm = j;
          }
        }
        const inner = f(f(wjm + resj) - f(wjm / f((jm + 1) * (jm + 1))));
        res = f(res + inner / 1.64493406685);
      }
    }
    if (items.length > 0) res = f(res / items.length);
  } else {
    // calc_rank_and: each item's entries against the last entry of every item before it.
    res = -1;
    // One array for every call: this runs for each record a search reads.
    const last = items.length <= lastEntries.length ? lastEntries : new Int32Array(items.length);
    last.fill(-1, 0, items.length);
    for (let i = 0; i < items.length; i++) {
      const [from, to] = items[i] as [number, number];
      for (let e = first; e < end; e++) {
        const w = entryWord[e] as number;
        if (w < from || w >= to) continue;
        last[i] = e;
        for (let k = 0; k < i; k++) {
          const c = last[k] as number;
          if (c < 0) continue;
          for (let l = firstPos[e] as number; l < (firstPos[e + 1] as number); l++) {
            const pl = positions[l] as number;
            for (let p = firstPos[c] as number; p < (firstPos[c + 1] as number); p++) {
              const pp = positions[p] as number;
              // Equal positions count only for words without positions, which names never have.
              const dist = Math.abs((pl & POS_MASK) - (pp & POS_MASK));
              if (dist === 0) continue;
              const weights = f((WEIGHTS[pl >> POS_BITS] as number) * (WEIGHTS[pp >> POS_BITS] as number));
              const curw = f(Math.sqrt(f(weights * wordDistance(dist))));
              res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
            }
          }
        }
      }
    }
  }
  if (res < 0) res = f(1e-20);
  return f(res / f(res + 1));
}

/** The OR of the masks of record r's name words. */
function nameMask(snap: Snapshot, masks: Uint16Array, r: number): number {
  let mask = 0;
  for (let e = snap.firstEntry[r] as number; e < (snap.firstEntry[r + 1] as number); e++)
    mask |= masks[snap.entryWord[e] as number] as number;
  return mask;
}

export function searchIndex(
  db: Db,
  feed: ChangeFeed,
  log: SnapshotLog,
  { buildChunk = BUILD_CHUNK, onBuilt }: IndexOptions = {},
): SearchIndex {
  const snapshots = feedSnapshot(
    feed,
    (closed) => readSnapshot(db, closed, buildChunk),
    log,
    'search index',
    onBuilt,
  );

  return {
    find(terms, limit, options) {
      const snap = snapshots.usable();
      if (snap === undefined) return undefined;
      const lower = terms.map((t) => t.toLowerCase());
      const distinct = [...new Set(lower)].sort();
      const ranges = distinct.map((t) => prefixRange(snap.words, t));
      // Per word, a bit for each distinct term it starts (at most 16 terms), and for each it
      // contains: a record's test is then one pass over its few name words.
      const full = (1 << distinct.length) - 1;
      const starts = snap.startMasks;
      const contains = snap.containMasks;
      ranges.forEach(([from, to], k) => {
        for (let w = from; w < to; w++) starts[w] = (starts[w] as number) | (1 << k);
      });
      const allPrefixed = (r: number) => nameMask(snap, starts, r) === full;
      const cleanup: Set<number>[] = [];
      let usedBits = false;
      try {
        // Marks are compared with stamps that only grow; start over long before they could wrap.
        if (snap.stamp > 0xffff0000) {
          snap.marks.fill(0);
          snap.stamp = 0;
        }
        const hit = (at: number) => ({ type: ENTITY_TYPES[snap.types[at] as number] as EntityType, at });

        // Group 1: the first `words` (word, record) pairs the longest term starts, in word order.
        const longest = [...distinct].sort((a, b) => b.length - a.length)[0] as string;
        const [from, to] = prefixRange(snap.words, longest);
        const stamp = ++snap.stamp;
        // The best `limit` so far, best first (rank, then position), kept by insertion: most
        // records read rank below the last kept and cost one comparison.
        const topAt: number[] = [];
        const topRank: number[] = [];
        const beats = (rank: number, at: number, i: number) =>
          rank > (topRank[i] as number) || (rank === topRank[i] && at < (topAt[i] as number));
        let read = 0;
        for (let w = from; w < to && read < options.words; w++) {
          const holders = snap.namePostings[w] as Int32Array;
          for (let k = 0; k < holders.length && read < options.words; k++, read++) {
            const r = holders[k] as number;
            if (snap.marks[r] === stamp) continue;
            snap.marks[r] = stamp;
            // The longest term starts a word of every record read; other terms need the check.
            if (ranges.length > 1 && !allPrefixed(r)) continue;
            const rank = 3 + tsRank(snap, r, ranges);
            let i = topAt.length;
            if (i === limit) {
              if (!beats(rank, r, limit - 1)) continue;
              i--;
            } else {
              topAt.push(r);
              topRank.push(rank);
            }
            for (; i > 0 && beats(rank, r, i - 1); i--) {
              topAt[i] = topAt[i - 1] as number;
              topRank[i] = topRank[i - 1] as number;
            }
            topAt[i] = r;
            topRank[i] = rank;
          }
        }
        const prefixed = topAt.map((at, i) => ({
          ...hit(at),
          id: uuidAt(snap.ids, at),
          rank: topRank[i] as number,
        }));

        const candidates = (): Candidates =>
          Object.fromEntries(ENTITY_TYPES.map((t) => [t, { at: [] }])) as unknown as Candidates;
        const take = (into: Candidates, found: ArrayLike<number>, most: number) => {
          for (let k = 0; k < found.length; k++) {
            const r = found[k] as number;
            const group = into[hit(r).type];
            if (group.at.length >= most) continue;
            group.at.push(r);
          }
        };
        const parts = candidates();
        const described = candidates();
        if (prefixed.length < limit) {
          // Group 2: records whose name words contain every term, not all as word starts.
          const inside = options.wordParts ? distinct.map((t) => wordsContaining(snap, t)) : [];
          cleanup.push(...inside);
          inside.forEach((words, k) => {
            for (const w of words) contains[w] = (contains[w] as number) | (1 << k);
          });
          const insideAll = (r: number) => nameMask(snap, contains, r) === full;
          if (options.wordParts) {
            const partStamp = ++snap.stamp;
            const found: number[] = [];
            for (const w of inside[distinct.indexOf(longest)] as Set<number>) {
              for (const r of snap.namePostings[w] as Int32Array) {
                if (snap.marks[r] === partStamp) continue;
                snap.marks[r] = partStamp;
                if (insideAll(r) && !allPrefixed(r)) found.push(r);
              }
            }
            take(parts, Int32Array.from(found).sort(), options.partCandidates);
          }

          // Group 3 ranks below every record of group 2 (under 2 against 2 or more), so when group 2
          // has as many candidates as the answer has places left, no description match can be in it.
          const partsFound = ENTITY_TYPES.reduce((n, t) => n + parts[t].at.length, 0);
          if (partsFound < limit - prefixed.length) {
            // Group 3: every term a whole word of the text, the last a prefix once long enough.
            const typed = lower.map((t, i) =>
              i === lower.length - 1 && t.length >= options.minPrefix
                ? prefixRange(snap.words, t)
                : exactRange(snap.words, t),
            );
            // The records holding every term, as bits in record (name) order: the terms before the
            // last mark the records holding terms 0..k with base + k + 1, counting each record once
            // per term; the last term's pass sets the bits of the records holding all the others.
            const base = snap.stamp + 1;
            snap.stamp += typed.length + 1;
            const { marks, bits, textLow, textBlocks, blocks } = snap;
            const last = typed.length - 1;
            usedBits = true;
            for (let k = 0; k <= last; k++) {
              const [wFrom, wTo] = typed[k] as [number, number];
              const before = base + k;
              for (let w = wFrom; w < wTo; w++) {
                for (let b = 0; b < blocks; b++) {
                  const high = b << BLOCK_BITS;
                  const end = textBlocks[w * blocks + b + 1] as number;
                  for (let p = textBlocks[w * blocks + b] as number; p < end; p++) {
                    const r = high | (textLow[p] as number);
                    if (k === last) {
                      if (k === 0 || marks[r] === before)
                        bits[r >> 5] = (bits[r >> 5] as number) | (1 << (r & 31));
                    } else if ((k === 0 && marks[r] !== base + 1) || marks[r] === before)
                      marks[r] = before + 1;
                  }
                }
              }
            }
            // Per type, the first `wanted` in name order that no earlier group finds, in one pass over
            // the bits that ends once every type has enough.
            const found: number[] = [];
            const wanted = options.describedCandidates;
            const fresh = (r: number) => !allPrefixed(r) && !(options.wordParts && insideAll(r));
            const taken = new Int32Array(ENTITY_TYPES.length);
            let open = ENTITY_TYPES.length;
            for (let i = 0; i < bits.length && open > 0; i++) {
              let word = bits[i] as number;
              while (word !== 0) {
                const lowest = word & -word;
                word ^= lowest;
                const r = (i << 5) | (31 - Math.clz32(lowest));
                const type = snap.types[r] as number;
                if ((taken[type] as number) < wanted && fresh(r)) {
                  found.push(r);
                  taken[type] = (taken[type] as number) + 1;
                  if (taken[type] === wanted) open--;
                }
              }
            }
            take(described, found, wanted);
          }
        }

        return {
          prefixed,
          parts,
          described,
          holds: (rows) =>
            snapshots.holds(snap) &&
            rows.every((row) => uuidIs(snap.ids, row.at, row.id) && snap.xmins[row.at] === Number(row.xmin)),
          idsText: (at) => uuidArrayText(snap.ids, at),
        };
      } finally {
        // The masks are the snapshot's own: cleared for the next search, whatever happens here.
        for (const [from, to] of ranges) starts.fill(0, from, to);
        for (const words of cleanup) for (const w of words) contains[w] = 0;
        if (usedBits) snap.bits.fill(0);
      }
    },
    refresh: () => snapshots.refresh(),
    close: () => snapshots.close(),
  };
}
