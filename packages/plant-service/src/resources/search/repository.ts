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
import { runPrepared } from '../../db/prepared-sql.js';
import { cultivars, families, nameWords, species } from '../../db/tables.js';
import type { SearchResult } from './schemas.js';
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

/** A source's records for `ranked` (a relation of id, rank, name), with what a result shows. */
function shown(s: Source, ranked: SQL): SQL {
  const name = sql.identifier(s.name.name);
  const isCultivar = s.type === 'cultivar';
  return sql`(select ${s.type}::text as entity_type, c.id, c.slug, c.${name} as name, c.name_en, c.name_de,
      ${s.description} as description,
      ${isCultivar ? sql`sp.slug` : sql`null::text`} as species_slug,
      ${isCultivar ? sql`sp.name_scientific` : sql`null::text`} as species_name_scientific,
      r.rank
    from ${ranked} r
    join ${s.table} c on c.id = r.id
    ${isCultivar ? sql`join ${species} sp on sp.id = c.species_id` : sql``}
    order by r.rank desc, r.name, c.id)`;
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

/** Ranks are normalised to numbers whatever the driver gives. */
const asResult = (r: Record<string, unknown>): SearchResult => ({
  ...(r as SearchResult),
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

/**
 * Groups 2 and 3 for `terms` terms, as one prepared statement per shape (the number of terms, and
 * whether they are long enough for word parts). The queries and patterns are computed once per
 * run in `q`, so a generic plan does not fold the text again for every row.
 */
function laterGroups(terms: number, wordParts: boolean): SQL {
  const q = (column: string) => sql.raw(`(select ${column} from q)`);
  const patterns = Array.from({ length: terms }, (_, i) => i);
  const inNames = (s: Source) =>
    sql.join(
      patterns.map((i) => sql`${s.namesText} like ${q(`p${i}`)}`),
      sql` and `,
    );
  const phases: Phase[] = [];
  if (wordParts)
    phases.push((s) => ({
      where: sql`${inNames(s)} and not ${s.names} @@ ${q('query')}`,
      rank: sql`2 + word_similarity(${q('whole')}, ${s.namesText})`,
      candidates: NAME_CANDIDATES,
    }));
  phases.push((s) => ({
    where: sql`${s.search} @@ ${q('typed')} and not ${s.names} @@ ${q('query')}${wordParts ? sql` and not (${inNames(s)})` : sql``}`,
    rank: sql`1 + ts_rank(${s.search}, ${q('typed')}, 32)`,
    candidates: DESCRIPTION_CANDIDATES,
  }));
  const limit = sql.placeholder('limit');
  const branches = phases.flatMap((phase) => phaseBranches(phase, limit));
  return sql`with q as (select to_tsquery('simple', plant_fold(${sql.placeholder('query')})) as query,
      to_tsquery('simple', plant_fold(${sql.placeholder('typed')})) as typed,
      plant_fold(${sql.placeholder('whole')}) as whole
      ${sql.join(
        patterns.map(
          (i) => sql`, '%' || plant_fold(${sql.placeholder(`p${i}`)}) || '%' as ${sql.raw(`p${i}`)}`,
        ),
        sql``,
      )})
    ${unionRanked(branches, limit)}`;
}

export async function searchAll(db: Db, text: string, limit: number): Promise<SearchResult[]> {
  const lexemes = searchLexemes(text);
  if (lexemes.length === 0) return [];
  // Each group leaves out what an earlier one finds, so a record appears once, in its best group.
  // Names alone first: when they fill the page, the costlier groups never run.
  const byName = await byNamePrefix(db, lexemes, limit);
  if (byName.length === limit) return byName;
  const wordParts = lexemes.every((l) => l.length >= MIN_WORD_PART);
  const later = await runPrepared<Record<string, unknown>>(
    db,
    `search_later_${lexemes.length}_${wordParts}`,
    () => laterGroups(lexemes.length, wordParts),
    {
      query: tsqueryOf(lexemes),
      typed: typedQueryOf(lexemes, MIN_WORD_PART),
      whole: lexemes.join(' '),
      limit: limit - byName.length,
      ...Object.fromEntries(lexemes.map((l, i) => [`p${i}`, l])),
    },
  );
  const found = [...byName, ...later.map(asResult)];
  if (found.length > 0) return found;
  // `<%` uses the trigram index with the session's threshold; SET LOCAL keeps it to this query.
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
