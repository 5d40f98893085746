/**
 * Search in ranked groups (the ranking rules in the API description): names first, then the next
 * two in one statement when the names did not fill `limit`:
 *   1. every term a word prefix of the names: rank 3 + relevance. Read from name_words, a btree
 *      of every name word, the first NAME_WORDS words in alphabetical order that the longest
 *      term starts; so a prefix shared by thousands of names costs the same as a rare one;
 *   2. every term (4+ characters) inside a name, such as a part of a German compound ("apfel" in
 *      "Kulturapfel"), from the trigram index: rank 2 + word similarity;
 *   3. the text as typed into a search box, in names or descriptions: the terms before the last
 *      as whole words (they are finished), the last as a word prefix once it has 4+ characters:
 *      rank 1 + relevance. Every prefix expands to all the description words it starts, so
 *      prefixes are kept to the one term still being typed, and to 4 letters or more;
 *   4. only when 1–3 found nothing, typo tolerance: names similar to the text (pg_trgm word
 *      similarity ≥ 0.5, "tomatoe" finds Tomato): rank = similarity.
 * Groups 2 and 3 rank a bounded candidate set per entity type.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client.js';
import { loadEach, perTurnOf } from '../../db/per-turn.js';
import { arrayLiteral, runPrepared } from '../../db/prepared-sql.js';
import { cultivars, families, nameWords, species } from '../../db/tables.js';
import type { SearchResult } from './schemas.js';
import { type IndexMatches, type SearchIndex, searchable } from './search-index.js';
import { searchLexemes, tsqueryOf, typedQueryOf } from './tsquery.js';

/** How many name words the prefix group reads at most. */
export const NAME_WORDS = 2000;
/** How many matches per entity type the later groups rank at most. */
export const NAME_CANDIDATES = 100;
export const DESCRIPTION_CANDIDATES = 50;
/** Word similarity a name needs in the typo fallback. */
const TYPO_THRESHOLD = 0.5;
/** Shorter terms are too unspecific to match inside words, or as description prefixes. */
export const MIN_WORD_PART = 4;

interface Source {
  type: 'family' | 'species' | 'cultivar';
  table: typeof families | typeof species | typeof cultivars;
  name: PgColumn;
  names: PgColumn;
  namesText: PgColumn;
  search: PgColumn;
  description: SQL;
}

const SOURCES: Source[] = [
  {
    type: 'family',
    table: families,
    name: families.name_scientific,
    names: families.names,
    namesText: families.names_text,
    search: families.search,
    description: sql`c.description`,
  },
  {
    type: 'species',
    table: species,
    name: species.name_scientific,
    names: species.names,
    namesText: species.names_text,
    search: species.search,
    description: sql`coalesce(c.description, c.description_en)`,
  },
  {
    type: 'cultivar',
    table: cultivars,
    name: cultivars.name,
    names: cultivars.names,
    namesText: cultivars.names_text,
    search: cultivars.search,
    description: sql`coalesce(c.description, c.description_en)`,
  },
];

type Phase = (s: Source) => { where: SQL; rank: SQL; candidates: number };
/** A row count, or the placeholder a prepared statement takes it in. */
type Limit = number | ReturnType<typeof sql.placeholder>;

/** What a result shows of a source's record `c` (a cultivar's species joined as `sp`). */
function shownColumns(s: Source): SQL {
  const isCultivar = s.type === 'cultivar';
  return sql`${s.type}::text as entity_type, c.id, c.slug, c.${sql.identifier(s.name.name)} as name, c.name_en, c.name_de,
      ${s.description} as description,
      ${isCultivar ? sql`sp.slug` : sql`null::text`} as species_slug,
      ${isCultivar ? sql`sp.name_scientific` : sql`null::text`} as species_name_scientific`;
}

/** A cultivar's species, for the columns a cultivar's result shows. */
const withSpecies = (s: Source): SQL =>
  s.type === 'cultivar' ? sql`join ${species} sp on sp.id = c.species_id` : sql``;

/**
 * A source's records for `ranked` (a relation of id and rank, and `at`, the record's position in
 * the name index, when `checked`), with what a result shows, and the row version and position
 * the name index's answers are checked by.
 */
function shown(s: Source, ranked: SQL, checked = false): SQL {
  return sql`(select ${shownColumns(s)},
      r.rank,
      ${checked ? sql`c.xmin::text as xmin, r.at` : sql`null::text as xmin, null::int as at`}
    from ${ranked} r
    join ${s.table} c on c.id = r.id
    ${withSpecies(s)}
    order by r.rank desc, c.${sql.identifier(s.name.name)}, c.id)`;
}

/** A phase's branches over the three entity types: the best `limit` of bounded candidate sets each. */
function phaseBranches(phase: Phase, limit: Limit): SQL[] {
  return SOURCES.map((s) => {
    const { where, rank, candidates } = phase(s);
    return shown(
      s,
      sql`(select id, rank, name from (
          select id, ${rank} as rank, ${s.name} as name from ${s.table} where ${where} limit ${candidates}
        ) candidates order by rank desc, name, id limit ${limit})`,
    );
  });
}

/** The best `limit` of all the phases' branches, in one statement (one round trip). */
async function runPhases(ex: Executor, phases: Phase[], limit: number): Promise<SearchResult[]> {
  return ranked(
    ex,
    phases.flatMap((phase) => phaseBranches(phase, limit)),
    limit,
  );
}

/** The best `limit` rows of all `branches`: one result list in the groups' order. */
const unionRanked = (branches: SQL[], limit: Limit): SQL =>
  sql`select * from (${sql.join(branches, sql` union all `)}) found order by rank desc, name, id limit ${limit}`;

async function ranked(ex: Executor, branches: SQL[], limit: number): Promise<SearchResult[]> {
  const result = await ex.execute(unionRanked(branches, limit));
  // Both drivers answer { rows }.
  const { rows } = result as unknown as { rows: Record<string, unknown>[] };
  return rows.map(asResult);
}

/** A row as the API shows it; ranks are normalised to numbers whatever the driver gives. */
const asResult = (r: Record<string, unknown>): SearchResult => ({
  entity_type: r.entity_type as SearchResult['entity_type'],
  id: r.id as string,
  slug: r.slug as string,
  name: r.name as string,
  name_en: r.name_en as string | null,
  name_de: r.name_de as string | null,
  description: r.description as string | null,
  species_slug: r.species_slug as string | null,
  species_name_scientific: r.species_name_scientific as string | null,
  rank: Number(r.rank),
});

/**
 * Group 1 from name_words: the first NAME_WORDS words, in byte order (the pattern operators of
 * the word index), that the longest term starts; of those whose record's names match every term,
 * the best `limit` records. A fixed number of words read, however common the prefix: the filter
 * stays outside the bounded scan, so the planner cannot trade the ordered index scan for reading
 * the whole range. The longest term is taken as the text search parser splits the text. One
 * prepared statement (its plan does not depend on the text): the query and the word are computed
 * once per run, not per row.
 */
async function byNamePrefix(db: Db, lexemes: string[], limit: number): Promise<SearchResult[]> {
  const w = nameWords;
  const rows = await runPrepared<Record<string, unknown>>(
    db,
    'search_name_prefix',
    () => {
      const query = sql`(select query from q)`;
      const word = sql`(select word from q)`;
      const best = sql`with q as (select to_tsquery('simple', plant_fold(${sql.placeholder('query')})) as query,
            plant_longest_word(plant_fold(${sql.placeholder('text')})) as word),
        words as (select ${w.entity_type}, ${w.entity_id}, ${w.name}, ${w.names} from ${w}
            where ${w.word} ~>=~ ${word} and ${w.word} ~<~ (${word} || chr(1114111))
            order by ${w.word} using ~<~ limit ${sql.placeholder('words')}),
        best as (select entity_type, entity_id, name, 3 + ts_rank(names, ${query}, 32) as rank
            from (select distinct on (entity_type, entity_id) * from words where names @@ ${query}) m
            order by rank desc, name, entity_id limit ${sql.placeholder('limit')}) `;
      const branches = SOURCES.map((s) =>
        shown(
          s,
          sql`(select entity_id as id, rank, name from best where entity_type = ${sql.raw(`'${s.type}'`)})`,
        ),
      );
      return sql`${best}${unionRanked(branches, sql.placeholder('limit'))}`;
    },
    { query: tsqueryOf(lexemes), text: lexemes.join(' '), words: NAME_WORDS, limit },
  );
  return rows.map(asResult);
}

const folded = (text: string) => sql`plant_fold(${text})`;

/** Reads a value the `q` CTE computes once per run. */
const fromQ = (column: string) => sql.raw(`(select ${column} from q)`);

/** Every term inside a source's names text (the `like` patterns of `q`). */
const inNames = (s: Source, terms: number) =>
  sql.join(
    Array.from({ length: terms }, (_, i) => sql`${s.namesText} like ${fromQ(`p${i}`)}`),
    sql` and `,
  );

/**
 * The values groups 2 and 3 read, computed once per run, so a generic plan does not fold the
 * text again for every row.
 */
function queryValues(terms: number): SQL {
  return sql`with q as (select to_tsquery('simple', plant_fold(${sql.placeholder('query')})) as query,
      to_tsquery('simple', plant_fold(${sql.placeholder('typed')})) as typed,
      plant_fold(${sql.placeholder('whole')}) as whole
      ${sql.join(
        Array.from(
          { length: terms },
          (_, i) => sql`, '%' || plant_fold(${sql.placeholder(`p${i}`)}) || '%' as ${sql.raw(`p${i}`)}`,
        ),
        sql``,
      )}) `;
}

/** Group 3, the text as typed, leaving out what the name groups find. */
const described =
  (terms: number, wordParts: boolean): Phase =>
  (s) => ({
    where: sql`${s.search} @@ ${fromQ('typed')} and not ${s.names} @@ ${fromQ('query')}${wordParts ? sql` and not (${inNames(s, terms)})` : sql``}`,
    rank: sql`1 + ts_rank(${s.search}, ${fromQ('typed')}, 32)`,
    candidates: DESCRIPTION_CANDIDATES,
  });

/** Group 2's rank: the text's word similarity to the names text. */
const partRank = (namesText: SQL | PgColumn) => sql`2 + word_similarity(${fromQ('whole')}, ${namesText})`;

/**
 * Groups 2 and 3 for `terms` terms, as one prepared statement per shape (the number of terms, and
 * whether they are long enough for word parts).
 */
function laterGroups(terms: number, wordParts: boolean): SQL {
  const phases: Phase[] = [];
  if (wordParts)
    phases.push((s) => ({
      where: sql`${inNames(s, terms)} and not ${s.names} @@ ${fromQ('query')}`,
      rank: partRank(s.namesText),
      candidates: NAME_CANDIDATES,
    }));
  phases.push(described(terms, wordParts));
  const limit = sql.placeholder('limit');
  const branches = phases.flatMap((phase) => phaseBranches(phase, limit));
  return sql`${queryValues(terms)}${unionRanked(branches, limit)}`;
}

/** The values groups 2 and 3 take for `lexemes`. */
function laterValues(lexemes: string[]): Record<string, unknown> {
  return {
    query: tsqueryOf(lexemes),
    typed: typedQueryOf(lexemes, MIN_WORD_PART),
    whole: lexemes.join(' '),
    ...Object.fromEntries(lexemes.map((l, i) => [`p${i}`, l])),
  };
}

/** Which entity types (SOURCES' indices) have records in each group: a statement's shape. */
interface FoundShape {
  given: number[];
  parts: number[];
  described: number[];
}

/**
 * The records the search index found when groups 2 or 3 have candidates: group 1's with their
 * ranks as given; group 2's and 3's candidates ranked here. Every record carries its row version
 * and index position for the index's check. One statement per shape (the entity types each group
 * has records of), whatever the text: a branch for a type without records would cost planning time
 * for nothing, which on the embedded database is most of such a statement's time.
 *
 * The arrays are read through scalar subqueries, so no plan knows their lengths. PostgreSQL tries
 * five custom plans of a prepared statement and keeps planning anew while a custom plan looks
 * cheaper than the generic one; with the lengths visible, one for a few records always did, and
 * about one search in six was planned again. Unseen, the plans cost the same and the generic one
 * stays.
 */
function foundGroups({ given, parts, described }: FoundShape): SQL {
  const ph = (name: string, i: number) => sql.placeholder(`${name}${i}`);
  /** Array placeholder `name` read once, as a value whose length no plan sees. */
  const array = (name: string, i: number, type: string) => sql`(select ${ph(name, i)}::${sql.raw(type)})`;
  const rest = sql.placeholder('rest');
  const rankedHere = (s: Source, i: number, group: string, rank: SQL) =>
    shown(
      s,
      sql`(select id, rank, at from (
          select c.id, ${rank} as rank, c.${sql.identifier(s.name.name)} as name, r.at
          from unnest(${array(group, i, 'uuid[]')}, ${array(`${group}At`, i, 'int[]')}) r(id, at)
          join ${s.table} c on c.id = r.id
        ) candidates order by rank desc, name, id limit ${rest})`,
      true,
    );
  const branches = [
    ...given.map((i) =>
      shown(
        SOURCES[i] as Source,
        sql`(select * from unnest(${array('ids', i, 'uuid[]')}, ${array('ranks', i, 'float8[]')}, ${array('at', i, 'int[]')}) u(id, rank, at))`,
        true,
      ),
    ),
    ...parts.map((i) => rankedHere(SOURCES[i] as Source, i, 'parts', partRank(sql`c.names_text`))),
    ...described.map((i) =>
      rankedHere(SOURCES[i] as Source, i, 'described', sql`1 + ts_rank(c.search, ${fromQ('typed')}, 32)`),
    ),
  ];
  return sql`with q as (select to_tsquery('simple', plant_fold(${sql.placeholder('typed')})) as typed,
      plant_fold(${sql.placeholder('whole')}) as whole) ${unionRanked(branches, sql.placeholder('limit'))}`;
}

/** The most records one statement for group 1's records reads: the answers of several searches. */
const MAX_SHOWN_BATCH = 1_000;

/** A record as a result shows it, with its row version; keyed by its source's index and id. */
type Shown = Record<string, unknown> & { entity_type: string; id: string; xmin: string };
const SOURCE_OF = new Map<string, number>(SOURCES.map((s, i) => [s.type, i]));
const shownKey = (type: string, id: string) => `${SOURCE_OF.get(type)}:${id}`;

/**
 * Every source's records among the ids given for it, as results show them, with their row
 * versions. The arrays are read through scalar subqueries, so one generic plan serves any mix.
 */
const shownByIds = (): SQL =>
  sql.join(
    SOURCES.map(
      (s, i) => sql`(select ${shownColumns(s)}, c.xmin::text as xmin
        from unnest((select ${sql.placeholder(`ids${i}`)}::uuid[])) r(id)
        join ${s.table} c on c.id = r.id ${withSpecies(s)})`,
    ),
    sql` union all `,
  );

/**
 * Searches whose records all come from group 1 (the names fill the page, or nothing else matches)
 * need the database only for what their results show: the searches of one turn of the event loop
 * read theirs in one statement, as list pages read their records, and each then checks the rows
 * against the versions its index read. Nothing is cached.
 */
const shownLoader = perTurnOf<Db, Shown>(async (db, keys) => {
  const ids = SOURCES.map(() => new Set<string>());
  for (const key of keys) {
    const colon = key.indexOf(':');
    ids[Number(key.slice(0, colon))]?.add(key.slice(colon + 1));
  }
  const rows = await runPrepared<Shown>(
    db,
    'search_shown',
    shownByIds,
    Object.fromEntries(ids.map((set, i) => [`ids${i}`, arrayLiteral([...set])])),
  );
  const byKey = new Map(rows.map((row) => [shownKey(row.entity_type, row.id), row]));
  return keys.map((key) => byKey.get(key));
}, MAX_SHOWN_BATCH);

/** Group 1's records as found, read through the loader; undefined when one changed or is gone. */
async function prefixedOnly(db: Db, matches: IndexMatches): Promise<SearchResult[] | undefined> {
  const hits = matches.prefixed;
  const rows = await loadEach(
    shownLoader(db),
    hits.map((h) => shownKey(h.type, h.id)),
  );
  const checked: (Shown & { rank: number; at: number })[] = [];
  for (const [k, row] of rows.entries()) {
    if (row === undefined) return undefined;
    const { rank, at } = hits[k] as IndexMatches['prefixed'][number];
    checked.push({ ...row, rank, at });
  }
  return matches.holds(checked) ? checked.map(asResult) : undefined;
}

/**
 * Groups 1–3 from the search index; undefined when the index is not current, or a record it
 * found changed since it read it (the database answers then).
 */
async function fromIndex(
  db: Db,
  index: SearchIndex,
  lexemes: string[],
  limit: number,
): Promise<SearchResult[] | undefined> {
  const matches = index.find(lexemes, limit, {
    words: NAME_WORDS,
    wordParts: lexemes.every((l) => l.length >= MIN_WORD_PART),
    partCandidates: NAME_CANDIDATES,
    describedCandidates: DESCRIPTION_CANDIDATES,
    minPrefix: MIN_WORD_PART,
  });
  if (matches === undefined) return undefined;
  const later = SOURCES.some(
    (s) => matches.parts[s.type].at.length + matches.described[s.type].at.length > 0,
  );
  // Best first already (rank, then name order), as the statement below would order them.
  if (!later) return matches.prefixed.length > 0 ? prefixedOnly(db, matches) : [];
  const shape: FoundShape = { given: [], parts: [], described: [] };
  const values: Record<string, unknown> = { limit, rest: limit - matches.prefixed.length };
  SOURCES.forEach((s, i) => {
    const hits = matches.prefixed.filter((h) => h.type === s.type);
    if (hits.length > 0) {
      shape.given.push(i);
      const at = hits.map((h) => h.at);
      values[`ids${i}`] = matches.idsText(at);
      values[`ranks${i}`] = arrayLiteral(hits.map((h) => h.rank));
      values[`at${i}`] = arrayLiteral(at);
    }
    for (const group of ['parts', 'described'] as const) {
      const { at } = matches[group][s.type];
      if (at.length === 0) continue;
      shape[group].push(i);
      values[`${group}${i}`] = matches.idsText(at);
      values[`${group}At${i}`] = arrayLiteral(at);
    }
  });
  Object.assign(values, { typed: typedQueryOf(lexemes, MIN_WORD_PART), whole: lexemes.join(' ') });
  const name = `search_found_${shape.given.join('')}_${shape.parts.join('')}_${shape.described.join('')}`;
  const rows = await runPrepared<Record<string, unknown>>(db, name, () => foundGroups(shape), values);
  const checked = rows as unknown as { id: string; xmin: string; at: number }[];
  // Every record of group 1 is in the answer (they rank above all others) unless it was deleted.
  // Counted by id, not by rank: a word part that is a whole name word ranks 2 + 1 = 3 too.
  const given = new Set(matches.prefixed.map((h) => h.id));
  const prefixed = checked.filter((r) => given.has(r.id)).length;
  if (prefixed !== matches.prefixed.length || !matches.holds(checked)) return undefined;
  // Every place is filled unless a candidate was deleted (the index leaves out description matches
  // that group 2 outnumbers, so a missing word part would leave a place the database would fill).
  const candidates = SOURCES.reduce(
    (n, s) => n + matches.parts[s.type].at.length + matches.described[s.type].at.length,
    matches.prefixed.length,
  );
  if (rows.length < Math.min(limit, candidates)) return undefined;
  return rows.map(asResult);
}

/**
 * Group 4, typo tolerance: names similar to the text. `<%` uses the trigram index with the
 * session's threshold; SET LOCAL keeps it to this query.
 */
function similarNames(db: Db, lexemes: string[], limit: number): Promise<SearchResult[]> {
  const whole = folded(lexemes.join(' '));
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local pg_trgm.word_similarity_threshold = ${TYPO_THRESHOLD}`));
    return runPhases(
      tx,
      [
        (s) => ({
          where: sql`${whole} <% ${s.namesText}`,
          rank: sql`word_similarity(${whole}, ${s.namesText})`,
          candidates: NAME_CANDIDATES,
        }),
      ],
      limit,
    );
  });
}

/**
 * Search in groups. `index`, when given, picks the records of groups 1–3 from memory for texts of
 * letters a–z (see search-index.ts); other texts, and any search while it is not current, run
 * the same groups in the database.
 */
export async function searchAll(
  db: Db,
  text: string,
  limit: number,
  index?: SearchIndex,
): Promise<SearchResult[]> {
  const lexemes = searchLexemes(text);
  if (lexemes.length === 0) return [];
  const indexed =
    index !== undefined && searchable(lexemes) ? await fromIndex(db, index, lexemes, limit) : undefined;
  if (indexed !== undefined) return indexed.length > 0 ? indexed : similarNames(db, lexemes, limit);
  // Each group leaves out what an earlier one finds, so a record appears once, in its best group.
  // Names alone first: when they fill the page, the costlier groups never run.
  const byName = await byNamePrefix(db, lexemes, limit);
  if (byName.length === limit) return byName;
  const wordParts = lexemes.every((l) => l.length >= MIN_WORD_PART);
  const later = await runPrepared<Record<string, unknown>>(
    db,
    `search_later_${lexemes.length}_${wordParts}`,
    () => laterGroups(lexemes.length, wordParts),
    { ...laterValues(lexemes), limit: limit - byName.length },
  );
  const found = [...byName, ...later.map(asResult)];
  return found.length > 0 ? found : similarNames(db, lexemes, limit);
}
