/**
 * Constraint violations become catalogue errors here, in one place, so no service has to check
 * before it writes (a check is a race: another writer can act between the check and the write):
 *   - unique (23505) → 409 Conflict, naming the column(s) or the rule;
 *   - foreign key (23503) → 400 naming the field: an insert or update points at a row that is not
 *     there, or no longer is (a delete that others still point at is a 409, see records.ts:
 *     PostgreSQL reports both cases alike, only the statement tells them apart);
 *   - check (23514) → 400.
 * The tables' own declarations say which constraint guards which columns.
 */
import { getTableName } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { type AppError, BadRequest, Conflict, ServiceUnavailable } from '../errors.js';
import { PG_CHECK_VIOLATION, PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, sqlState } from './errors.js';
import * as tables from './tables.js';

interface ForeignKey {
  table: string;
  column: string;
  referenced: string;
}

/** Unique rules whose columns alone would not tell a client what clashed. */
const UNIQUE_MESSAGES: Record<string, string> = {
  companions_pair_idx: 'these species already have a companion relation (in either order)',
  cultivar_suppliers_pair_idx: 'this supplier is already linked to the cultivar',
};

const foreignKeys = new Map<string, ForeignKey>();
const uniqueColumns = new Map<string, string>();
for (const table of Object.values(tables)) {
  if (!isTable(table)) continue;
  const config = getTableConfig(table);
  for (const fk of config.foreignKeys) {
    const reference = fk.reference();
    foreignKeys.set(fk.getName(), {
      table: config.name,
      column: reference.columns.map((c) => c.name).join(', '),
      referenced: getTableName(reference.foreignTable),
    });
  }
  for (const column of config.columns) {
    if (column.isUnique && column.uniqueName) uniqueColumns.set(column.uniqueName, column.name);
  }
}

function isTable(value: unknown): value is PgTable {
  try {
    getTableConfig(value as PgTable);
    return typeof getTableName(value as PgTable) === 'string';
  } catch {
    return false;
  }
}

function field(error: unknown, key: 'constraint'): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const value = (current as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A delete refused because other rows still point at the row. */
export function stillReferenced(error: unknown): Conflict | undefined {
  if (sqlState(error) !== PG_FOREIGN_KEY_VIOLATION) return undefined;
  const from = foreignKeys.get(field(error, 'constraint') ?? '')?.table ?? 'other records';
  return new Conflict(`still referenced from ${from}; delete those first`, {}, { cause: error });
}

/**
 * Signs that the database cannot be reached right now (not that a query was wrong): SQLSTATE
 * class 08 (connection exception), 57P01–57P03 (shut down, crash, starting up), and the socket
 * errors of a refused or dropped connection.
 */
const UNREACHABLE = /^(08...|57P0[1-3]|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)$/;

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 1;

/** Whether `error` says the database is unreachable (see UNREACHABLE). */
export function databaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The catalogue error a database error stands for — a constraint violation, or the database
 * being unreachable (503 with `retry_after`) — or undefined for any other error.
 */
export function databaseError(error: unknown): AppError | undefined {
  if (databaseUnreachable(error)) {
    return new ServiceUnavailable(
      'the database is unavailable; try again shortly',
      { retry_after: RETRY_AFTER_SECONDS },
      { cause: error, retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
  const state = sqlState(error);
  const constraint = field(error, 'constraint') ?? '';
  if (state === PG_UNIQUE_VIOLATION) {
    const column = uniqueColumns.get(constraint);
    if (column) return new Conflict(`${column}: already taken`, { field: column }, { cause: error });
    const message = UNIQUE_MESSAGES[constraint] ?? 'conflicts with an existing record';
    return new Conflict(message, {}, { cause: error });
  }
  if (state === PG_FOREIGN_KEY_VIOLATION) {
    const fk = foreignKeys.get(constraint);
    if (!fk) return new BadRequest('refers to a record that does not exist', {}, { cause: error });
    const message = `${fk.column}: no such record in ${fk.referenced}`;
    return new BadRequest(message, { field: fk.column }, { cause: error });
  }
  if (state === PG_CHECK_VIOLATION) {
    return new BadRequest(`violates the rule ${constraint || 'of a check'}`, {}, { cause: error });
  }
  return undefined;
}
