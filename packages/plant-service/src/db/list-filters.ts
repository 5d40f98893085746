/**
 * A list's field filters as SQL: each query parameter given is compared with its field's column,
 * as the field's filter says (equal to, or at least).
 */
import { eq, gte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Fields, filterParam } from '../schema/fields.js';

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
    conditions.push(field.filter?.by === 'minimum' ? gte(column, value) : eq(column, value));
  }
  return conditions;
}
