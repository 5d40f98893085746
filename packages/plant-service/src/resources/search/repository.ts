/**
 * The statements of search (the groups and their ranks are the service's, search/service.ts):
 *   1. names, word prefixes: read from name_words, a btree of every name word, the first `words`
 *      words in alphabetical order that the longest term starts, so a prefix shared by thousands of
 *      names costs the same as a rare one: rank 3 + relevance;
 *   2. word parts of names, from the trigram index: rank 2 + word similarity;
 *   3. the text as typed, in names or descriptions: rank 1 + relevance;
 *   4. similar names (pg_trgm word similarity): rank = similarity.
 * Groups 2 and 3 rank a bounded candidate set per entity type. Only SQL here.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client.js';
import { runPrepared } from '../../db/prepared-sql.js';
import { cultivars, families, nameWords, species } from '../../db/tables.js';
import type { SearchResult } from './schemas.js';
import { tsqueryOf, typedQueryOf } from './tsquery.js';

/** The bounds a search runs under (the service sets them). */
export interface SearchBounds {
  /** How many name words group 1 reads at most. */
  words: number;
  /** How many name matches (group 2, 4) and description matches (group 3) per entity type are ranked. */
  nameCandidates: number;
  describedCandidates: number;
  /** Terms shorter than this match neither inside words nor as description prefixes. */
  minWordPart: number;
  /** The word similarity every term needs to a name in group 4. */
  typoThreshold: number;
}

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

/** A row count, or the placeholder a prepared statement takes it in. */
type Limit = number | ReturnType<typeof sql.placeholder>;
type Phase = (s: Source) => { where: SQL; rank: SQL; candidates: Limit };

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

/** A source's records for `ranked` (a relation of id and rank), with what a result shows. */
function shown(s: Source, ranked: SQL): SQL {
  return sql`(select ${shownColumns(s)}, r.rank
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
 * Group 1 from name_words: the first `words` words, in byte order (the pattern operators of
 * the word index), that the longest term starts; of those whose record's names match every term,
 * the best `limit` records. A fixed number of words read, however common the prefix: the filter
 * stays outside the bounded scan, so the planner cannot trade the ordered index scan for reading
 * the whole range. The longest term is taken as the text search parser splits the text. One
 * prepared statement (its plan does not depend on the text): the query and the word are computed
 * once per run, not per row.
 */
export async function byNamePrefix(
  db: Db,
  lexemes: string[],
  limit: number,
  bounds: SearchBounds,
): Promise<SearchResult[]> {
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
    { query: tsqueryOf(lexemes), text: lexemes.join(' '), words: bounds.words, limit },
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
    candidates: sql.placeholder('described_candidates'),
  });

/** Group 2's rank: the text's word similarity to the names text. */
const partRank = (namesText: SQL | PgColumn) => sql`2 + word_similarity(${fromQ('whole')}, ${namesText})`;

/** Groups 2 and 3 for `terms` terms, with or without word parts: one statement per shape. */
function laterStatement(terms: number, wordParts: boolean): SQL {
  const phases: Phase[] = [];
  if (wordParts)
    phases.push((s) => ({
      where: sql`${inNames(s, terms)} and not ${s.names} @@ ${fromQ('query')}`,
      rank: partRank(s.namesText),
      candidates: sql.placeholder('name_candidates'),
    }));
  phases.push(described(terms, wordParts));
  const limit = sql.placeholder('limit');
  const branches = phases.flatMap((phase) => phaseBranches(phase, limit));
  return sql`${queryValues(terms)}${unionRanked(branches, limit)}`;
}

/**
 * Groups 2 (when `wordParts`) and 3, leaving out what group 1 finds: the best `limit` records. One
 * prepared statement per shape (the number of terms, and whether they are long enough for word
 * parts).
 */
export async function laterGroups(
  db: Db,
  lexemes: string[],
  wordParts: boolean,
  limit: number,
  bounds: SearchBounds,
): Promise<SearchResult[]> {
  const rows = await runPrepared<Record<string, unknown>>(
    db,
    `search_later_${lexemes.length}_${wordParts}`,
    () => laterStatement(lexemes.length, wordParts),
    {
      query: tsqueryOf(lexemes),
      typed: typedQueryOf(lexemes, bounds.minWordPart),
      whole: lexemes.join(' '),
      ...Object.fromEntries(lexemes.map((l, i) => [`p${i}`, l])),
      name_candidates: bounds.nameCandidates,
      described_candidates: bounds.describedCandidates,
      limit,
    },
  );
  return rows.map(asResult);
}

/**
 * Group 4, typo tolerance: names similar to every term (the AND rule holds here too: a term may
 * match a name loosely, but each must), ranked by the whole text's similarity. `<%` uses the
 * trigram index with the session's threshold; SET LOCAL keeps it to this query.
 */
export function similarNames(
  db: Db,
  lexemes: string[],
  limit: number,
  bounds: SearchBounds,
): Promise<SearchResult[]> {
  const whole = folded(lexemes.join(' '));
  return db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`set local pg_trgm.word_similarity_threshold = ${Number(bounds.typoThreshold)}`),
    );
    return runPhases(
      tx,
      [
        (s) => ({
          where: sql.join(
            lexemes.map((lexeme) => sql`${folded(lexeme)} <% ${s.namesText}`),
            sql` and `,
          ),
          rank: sql`word_similarity(${whole}, ${s.namesText})`,
          candidates: bounds.nameCandidates,
        }),
      ],
      limit,
    );
  });
}
