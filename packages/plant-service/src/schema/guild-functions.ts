/**
 * The six guild functions and what qualifies a species for each. The predicates are SQL over the
 * species' own columns, used three times with the same text: the generated `guild_score` column
 * (how many functions a species has), the partial indexes that serve each function's best
 * candidates, and the guild queries (PostgreSQL uses a partial index only for a matching predicate).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { EVIDENCE_LEVELS } from './vocabularies.js';

export const GUILD_FUNCTIONS = [
  'nitrogen_fixer',
  'dynamic_accumulator',
  'pollinator_attractor',
  'beneficial_insect_attractor',
  'ground_cover',
  'mulch_plant',
] as const;
export type GuildFunction = (typeof GUILD_FUNCTIONS)[number];

/** Each function's rule in the species' columns; `p` qualifies the column names (e.g. `"s".`). */
const PREDICATES: Record<GuildFunction, (p: string) => string> = {
  nitrogen_fixer: (p) => `(${p}"nitrogen_fixer" is true)`,
  dynamic_accumulator: (p) => `(${p}"dynamic_accumulator" is true)`,
  pollinator_attractor: (p) => `(${p}"attracts_pollinators" is true)`,
  beneficial_insect_attractor: (p) => `(${p}"attracts_beneficial_insects" is true)`,
  // `is true`: a species without a layer is not a ground cover (not unknown, which would make the
  // whole guild score unknown).
  ground_cover: (p) =>
    `((${p}"plant_layer" = 'ground_cover' or 'ground_cover' = any(coalesce(${p}"guild_role", '{}'))) is true)`,
  mulch_plant: (p) => `(${p}"mulch_plant" is true)`,
};

/** How each function is decided, in words, for the API description. */
export const FUNCTION_RULES: Record<GuildFunction, string> = {
  nitrogen_fixer: '`nitrogen_fixer` is true',
  dynamic_accumulator: '`dynamic_accumulator` is true',
  pollinator_attractor: '`attracts_pollinators` is true',
  beneficial_insect_attractor: '`attracts_beneficial_insects` is true',
  ground_cover: '`plant_layer` is `ground_cover` or `guild_role` lists `ground_cover`',
  mulch_plant: '`mulch_plant` is true',
};

export function functionPredicate(fn: GuildFunction, qualifier = ''): SQL {
  return sql.raw(PREDICATES[fn](qualifier));
}

/** The number of functions a species has (0–6), as SQL for the generated column. */
export function guildScoreSql(): SQL {
  return sql.raw(GUILD_FUNCTIONS.map((fn) => `${PREDICATES[fn]('')}::int`).join(' + '));
}

/**
 * The functions a species has as one number, bit i for GUILD_FUNCTIONS[i], as SQL over the
 * species' columns (for reading them in bulk).
 */
export function guildFunctionBitsSql(): SQL {
  return sql.raw(GUILD_FUNCTIONS.map((fn, i) => `${PREDICATES[fn]('')}::int * ${2 ** i}`).join(' + '));
}

/** A group of guild candidates: those with one function, or those of one layer. */
export type GuildGroupKey = `function:${GuildFunction}` | `layer:${string}`;

/** Score a beneficial relation adds on top of its base, by evidence: surer relations rank first. */
export const EVIDENCE_BONUS: Record<(typeof EVIDENCE_LEVELS)[number], number> = {
  scientific: 3,
  documented: 2,
  traditional: 1,
};
