/**
 * Hand-written statements (unions of ordered subqueries and the like, which the query builder
 * cannot express) prepared once: the statement is built from drizzle `sql` with
 * `sql.placeholder(name)` for every value that changes between requests, turned into SQL text
 * once per database, and run as a named prepared statement. Building a large `sql` template
 * costs more CPU than the query it sends, and PostgreSQL plans a prepared statement once per
 * connection (a generic plan after a few runs) instead of on every request.
 */
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

interface PreparedStatement {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/** The parts of drizzle's database object that `db.execute` itself uses. */
interface Internals {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): PreparedStatement;
  };
}

const statements = new WeakMap<Db, Map<string, PreparedStatement>>();

/**
 * Runs the statement `name` (built by `build` on first use) with `values` for its placeholders;
 * its rows come back as objects, as from `db.execute`. Outside transactions only: a statement is
 * kept per database object.
 */
export async function runPrepared<Row>(
  db: Db,
  name: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<Row[]> {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name);
  if (!statement) {
    const internals = db as unknown as Internals;
    statement = internals.session.prepareQuery(internals.dialect.sqlToQuery(build()), undefined, name, false);
    byName.set(name, statement);
  }
  const result = (await statement.execute(values)) as { rows: Row[] };
  return result.rows;
}

/**
 * A list of ids or numbers as a PostgreSQL array literal (`{a,b}`), for an array parameter. Both
 * drivers pass a string on as it is; given the list, they quote and escape each element apart, a
 * string per element on every run of the hot statements. Only for elements that need no quoting:
 * numbers, and uuids in their canonical text form.
 */
export const arrayLiteral = (list: readonly (string | number)[]): string => `{${list.join(',')}}`;
