/**
 * Hand-written statements (unions of ordered subqueries and the like, which the query builder
 * cannot express) prepared once: the statement is built from drizzle `sql` with
 * `sql.placeholder(name)` for every value that changes between requests, rendered to SQL text once,
 * and sent through the driver's public API: on PostgreSQL as a named prepared statement (parsed and
 * planned once per connection, a generic plan after a few runs), on PGlite as a parameterised query.
 * Building a large `sql` template costs more CPU than the query it sends.
 */

import type { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client.js';

interface Rendered {
  text: string;
  params: unknown[];
}

const dialect = new PgDialect();
const rendered = new Map<string, Rendered>();

/** Timestamps, dates and intervals come back as the text PostgreSQL sends, as drizzle gives them. */
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186]);
const asText = (value: string) => value;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid)
      ? asText
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};
const pgliteParsers = Object.fromEntries([...TEXT_TYPES].map((oid) => [oid, asText]));

/**
 * Runs the statement `name` (built by `build` on first use) with `values` for its placeholders;
 * its rows come back as objects, as from `db.execute`. Outside transactions only. A name stands
 * for one statement text in the whole process.
 */
export async function runPrepared<Row>(
  db: Db,
  name: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<Row[]> {
  let statement = rendered.get(name);
  if (!statement) {
    const query = dialect.sqlToQuery(build());
    statement = { text: query.sql, params: query.params };
    rendered.set(name, statement);
  }
  const params = fillPlaceholders(statement.params, values);
  // drizzle's own handle on the driver's client: a pg Pool or a PGlite instance.
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if ('waitReady' in client) {
    const result = await client.query<Row>(statement.text, params, { parsers: pgliteParsers });
    return result.rows;
  }
  const result = await client.query<Row & pg.QueryResultRow>({
    name,
    text: statement.text,
    values: params,
    types: pgTypes,
  });
  return result.rows;
}

/**
 * A list of ids or numbers as a PostgreSQL array literal (`{a,b}`), for an array parameter. Both
 * drivers pass a string on as it is; given the list, they quote and escape each element apart, a
 * string per element on every run of the hot statements. Only for elements that need no quoting:
 * numbers, and uuids in their canonical text form.
 */
export const arrayLiteral = (list: readonly (string | number)[]): string => `{${list.join(',')}}`;
