/**
 * Search in ranked groups (the ranking rules in the API description): names first, then the next
 * two in one statement when the names did not fill `limit`:
 *   1. every term a word prefix of the names (the names-only vector): rank 3 + relevance;
 *   2. every term (3+ characters) inside a name, such as a part of a German compound ("apfel" in
 *      "Kulturapfel"), from the trigram index: rank 2 + word similarity;
 *   3. every term a word prefix of the names or descriptions: rank 1 + relevance;
 *   4. only when 1–3 found nothing, typo tolerance: names similar to the text (pg_trgm word
 *      similarity ≥ 0.5, "tomatoe" finds Tomato): rank = similarity.
 * Each group ranks a bounded candidate set per entity type, so a two-letter prefix never ranks
 * thousands of rows.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { cultivars, families, species } from '../../db/tables.js';
import type { SearchResult } from './schemas.js';
import { searchLexemes, tsqueryOf } from './tsquery.js';

/** How many matches per entity type a phase ranks at most. */
const NAME_CANDIDATES = 500;
const DESCRIPTION_CANDIDATES = 200;
/** Word similarity a name needs in the typo fallback. */
const TYPO_THRESHOLD = 0.5;
/** Shorter terms are too unspecific to match inside words. */
const MIN_WORD_PART = 3;

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

/** A phase's branches over the three entity types: the best `limit` of bounded candidate sets each. */
function phaseBranches(phase: Phase, limit: number): SQL[] {
  return SOURCES.map((s) => {
    const { where, rank, candidates } = phase(s);
    const name = sql.identifier(s.name.name);
    const isCultivar = s.type === 'cultivar';
    return sql`(select ${s.type}::text as entity_type, c.id, c.slug, c.${name} as name, c.name_en, c.name_de,
        ${s.description} as description,
        ${isCultivar ? sql`sp.slug` : sql`null::text`} as species_slug,
        ${isCultivar ? sql`sp.name_scientific` : sql`null::text`} as species_name_scientific,
        r.rank
      from (
        select id, rank, name from (
          select id, ${rank} as rank, ${s.name} as name from ${s.table} where ${where} limit ${candidates}
        ) candidates order by rank desc, name, id limit ${limit}
      ) r
      join ${s.table} c on c.id = r.id
      ${isCultivar ? sql`join ${species} sp on sp.id = c.species_id` : sql``}
      order by r.rank desc, r.name, c.id)`;
  });
}

/** The best `limit` of all the phases' branches, in one statement (one round trip). */
async function runPhases(ex: Executor, phases: Phase[], limit: number): Promise<SearchResult[]> {
  const branches = phases.flatMap((phase) => phaseBranches(phase, limit));
  const result = await ex.execute(
    sql`select * from (${sql.join(branches, sql` union all `)}) found order by rank desc, name, id limit ${limit}`,
  );
  // Both drivers answer { rows }; ranks are normalised to numbers whatever the driver gives.
  const { rows } = result as unknown as { rows: Record<string, unknown>[] };
  return rows.map((r) => ({ ...(r as SearchResult), rank: Number(r.rank) }));
}

const folded = (text: string) => sql`plant_fold(${text})`;

export async function searchAll(ex: Executor, text: string, limit: number): Promise<SearchResult[]> {
  const lexemes = searchLexemes(text);
  if (lexemes.length === 0) return [];
  const tsquery = sql`to_tsquery('simple', plant_fold(${tsqueryOf(lexemes)}))`;
  const whole = folded(lexemes.join(' '));
  const wordParts = lexemes.every((l) => l.length >= MIN_WORD_PART);
  const inNames = (s: Source) =>
    sql.join(
      lexemes.map((l) => sql`${s.namesText} like '%' || ${folded(l)} || '%'`),
      sql` and `,
    );
  // Each phase leaves out what an earlier one finds, so a record appears once, in its best group.
  const names: Phase = (s) => ({
    where: sql`${s.names} @@ ${tsquery}`,
    // Normalisation 32 keeps relevance below 1, so the groups never overlap.
    rank: sql`3 + ts_rank(${s.names}, ${tsquery}, 32)`,
    candidates: NAME_CANDIDATES,
  });
  // Names alone first: when they fill the page, the costlier groups never run.
  const byName = await runPhases(ex, [names], limit);
  if (byName.length === limit) return byName;
  const phases: Phase[] = [];
  if (wordParts)
    phases.push((s) => ({
      where: sql`${inNames(s)} and not ${s.names} @@ ${tsquery}`,
      rank: sql`2 + word_similarity(${whole}, ${s.namesText})`,
      candidates: NAME_CANDIDATES,
    }));
  phases.push((s) => ({
    where: sql`${s.search} @@ ${tsquery} and not ${s.names} @@ ${tsquery}${wordParts ? sql` and not (${inNames(s)})` : sql``}`,
    rank: sql`1 + ts_rank(${s.search}, ${tsquery}, 32)`,
    candidates: DESCRIPTION_CANDIDATES,
  }));
  const found = [...byName, ...(await runPhases(ex, phases, limit - byName.length))];
  if (found.length > 0) return found;
  // `<%` uses the trigram index with the session's threshold; SET LOCAL keeps it to this query.
  return ex.transaction(async (tx) => {
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
