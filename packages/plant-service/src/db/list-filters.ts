/**
 * A list's field filters as SQL: each query parameter given is compared with its field's column,
 * as the field's filter says (equal to, at least, or a list holding it).
 */
import { eq, gte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Fields, filterParam } from '../schema/fields.js';

/**
 * A list column holds `value`: a word of an array column, or for a list of objects (a json
 * column) an item whose member `key` is `value`, as a containment test on the list as jsonb (the
 * form its index is built on).
 */
function contains(column: PgColumn, value: unknown, key: string | undefined): SQL {
  if (key === undefined) return sql`${value} = any(${column})`;
  return sql`(${column}::jsonb) @> ${JSON.stringify([{ [key]: value }])}::jsonb`;
}

/** The conditions of the filters on `names` that `query` gives a value, in `names` order. */
export function filterConditions<F extends Fields>(
  columns: { [K in keyof F]: PgColumn },
  fields: F,
  names: readonly (keyof F & string)[],
  query: Readonly<Record<string, unknown>>,
): SQL[] {
  const conditions: SQL[] = [];
  for (const name of names) {
    const field = fields[name] as F[string];
    const value = query[filterParam(name, field)];
    if (value === undefined) continue;
    const column = columns[name];
    const by = field.filter?.by;
    conditions.push(
      by === 'minimum'
        ? gte(column, value)
        : by === 'contains'
          ? contains(column, value, field.filter?.key)
          : eq(column, value),
    );
  }
  return conditions;
}
