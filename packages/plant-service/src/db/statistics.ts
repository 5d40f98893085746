/**
 * Planner statistics. PostgreSQL's autovacuum keeps them current; PGlite has no autovacuum, so
 * without this its planner guesses row counts far off (82 where thousands match) and picks
 * sequential scans. VACUUM also marks pages all-visible, which index-only scans need.
 */
import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

const TABLES = [
  'families',
  'species',
  'cultivars',
  'suppliers',
  'cultivar_suppliers',
  'companions',
  'name_words',
];

/** Tables written by triggers when these are written: the names' words follow the named records. */
const DERIVED: Record<string, string[]> = {
  families: ['name_words'],
  species: ['name_words'],
  cultivars: ['name_words'],
};

/** How often a running PGlite service looks for stale statistics. */
export const STATISTICS_CHECK_MS = 5 * 60 * 1000;

/**
 * VACUUM ANALYZE of every catalogue table whose statistics are stale by autovacuum's own rule:
 * never analysed, or more rows changed since the last ANALYZE than 50 + 10 % of the table.
 * Returns the tables it refreshed. Without `vacuum`, only ANALYZE (a sample, quick), for use
 * while serving: PGlite runs in the service's own thread, and VACUUM reads whole tables.
 */
export async function refreshStaleStatistics(database: Database, { vacuum = true } = {}): Promise<string[]> {
  const result = await database.db.execute(sql`
    select c.relname as name, c.reltuples::float8 as tuples, coalesce(s.n_mod_since_analyze, 0)::float8 as modified
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
     where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
       and c.relname in (${sql.join(
         TABLES.map((t) => sql`${t}`),
         sql`, `,
       )})`);
  const { rows } = result as unknown as { rows: { name: string; tuples: number; modified: number }[] };
  const stale = rows
    .filter((r) => r.tuples < 0 || Number(r.modified) > 50 + 0.1 * Number(r.tuples))
    .map((r) => r.name);
  if (vacuum) await vacuumAnalyze(database, stale);
  else for (const table of stale) await database.db.execute(sql.raw(`analyze "${table}"`));
  return stale;
}

/** VACUUM ANALYZE of the `written` tables (e.g. the ones a bulk import wrote) and of what triggers derive from them. */
export async function vacuumAnalyze(database: Database, written: readonly string[]): Promise<void> {
  const tables = [...new Set(written.flatMap((t) => [t, ...(DERIVED[t] ?? [])]))];
  // VACUUM cannot run inside a transaction block: one statement per table.
  for (const table of tables) await database.db.execute(sql.raw(`vacuum analyze "${table}"`));
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Refreshes stale statistics now, with VACUUM (awaited, before the service listens), and then
 * every few minutes with ANALYZE alone; returns a stop function.
 */
export async function keepStatisticsCurrent(database: Database, log: Logger): Promise<() => void> {
  const run = (vacuum: boolean) =>
    refreshStaleStatistics(database, { vacuum }).then(
      (tables) => tables.length > 0 && log.info({ tables }, 'planner statistics refreshed'),
      (error) => log.warn({ err: error }, 'refreshing planner statistics failed'),
    );
  await run(true);
  const timer = setInterval(() => void run(false), STATISTICS_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
