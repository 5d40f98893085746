/**
 * A fresh, migrated, empty database for one test file, on the backend the vitest project names
 * (TEST_DB=pglite|postgres), cloned from the run's template.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject, vi } from 'vitest';
import { type Database, newPglite, openPglite, openPostgres } from '../../src/db/client.js';
import { adminQuery, withDatabase } from './postgres-admin.js';

export const backend = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export async function testDatabase(): Promise<Database> {
  if (backend === 'pglite') {
    const dump = await readFile(inject('pgliteTemplate'));
    return openPglite({ instance: await newPglite({ loadDataDir: new Blob([dump]) }) });
  }
  const url = inject('postgresUrl');
  const name = `plant_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(url, `create database ${name} template ${inject('postgresTemplate')}`);
  const database = openPostgres({ url: withDatabase(url, name), poolSize: 4 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await adminQuery(url, `drop database if exists ${name}`);
    },
  };
}

/** The first byte of the protocol messages that run a statement: Bind, and a simple Query. */
const RUNS_STATEMENT = new Set(['B'.charCodeAt(0), 'Q'.charCodeAt(0)]);

/**
 * The number of statements either backend has been sent so far (call once per test file, before
 * the statements to count). On PostgreSQL every statement goes through a client's `query`; on
 * PGlite through a protocol message that binds (or simply runs) it.
 */
export function statementCounter(): () => number {
  if (backend === 'postgres') {
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    return () => sent.mock.calls.length;
  }
  const sent = vi.spyOn(PGlite.prototype, 'execProtocolStream');
  return () => sent.mock.calls.filter(([message]) => RUNS_STATEMENT.has(message[0] as number)).length;
}
