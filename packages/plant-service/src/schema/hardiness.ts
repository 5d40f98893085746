/**
 * USDA hardiness zones. A species' `hardiness_zone_usda` is one zone (`7`, `7a`, `7b`) or a range
 * (`4-8`, `4b-8a`), zones 1–13, the colder zone first. For filtering, a value becomes an interval
 * of half-zones: `Na` is 2N-1, `Nb` is 2N, a whole zone `N` covers both (2N-1 … 2N). The database
 * derives that interval in generated columns with the same rule (see `halfZoneMinSql`).
 */
import { type SQL, sql } from 'drizzle-orm';

const ZONE = '(1[0-3]|[1-9])[ab]?';
/** One zone: `7`, `7a`, `7b`. */
export const ZONE_PATTERN = `^${ZONE}$`;
/** One zone or a range of two, e.g. `7`, `7b`, `4-8`, `4b-8a`. */
export const ZONE_RANGE_PATTERN = `^${ZONE}(-${ZONE})?$`;

export interface HalfZones {
  min: number;
  max: number;
}

const zoneRe = new RegExp(ZONE_PATTERN);
const rangeRe = new RegExp(ZONE_RANGE_PATTERN);

function lowEdge(zone: string): number {
  const n = Number.parseInt(zone, 10);
  return zone.endsWith('b') ? 2 * n : 2 * n - 1;
}

function highEdge(zone: string): number {
  const n = Number.parseInt(zone, 10);
  return zone.endsWith('a') ? 2 * n - 1 : 2 * n;
}

/** The half-zone interval of one zone (`7` → 13…14, `7a` → 13…13); null when it is not a zone. */
export function zoneInterval(zone: string): HalfZones | null {
  if (!zoneRe.test(zone)) return null;
  return { min: lowEdge(zone), max: highEdge(zone) };
}

/** The half-zone interval of a zone or range; null when the text is not in the documented form. */
export function rangeInterval(value: string): HalfZones | null {
  if (!rangeRe.test(value)) return null;
  const [from, to = from] = value.split('-') as [string, string?];
  return { min: lowEdge(from), max: highEdge(to as string) };
}

/** Why a value in the documented form is still not a range: its zones are in the wrong order. */
export function rangeProblem(value: string): string | null {
  const interval = rangeInterval(value);
  if (interval === null) return 'must be a zone 1–13 (`7`, `7a`, `7b`) or a range (`4-8`, `4b-8a`)';
  return interval.min > interval.max ? 'a range must name the colder zone first (e.g. `4-8`)' : null;
}

/** Whether a species with range `range` (null: unknown) is hardy in every part of `zone`. */
export function rangeIncludes(range: HalfZones | null, zone: HalfZones): boolean {
  return range !== null && range.min <= zone.min && range.max >= zone.max;
}

/**
 * The half-zone bounds of a column holding a documented value, as SQL for generated columns;
 * NULL for NULL or anything else. Only immutable built-ins, as generated columns require.
 */
function edgeSql(column: string, side: 'min' | 'max'): SQL {
  const part =
    side === 'min'
      ? `split_part(${column}, '-', 1)`
      : `coalesce(nullif(split_part(${column}, '-', 2), ''), ${column})`;
  const offset =
    side === 'min'
      ? `case when ${part} like '%b' then 0 else 1 end`
      : `case when ${part} like '%a' then 1 else 0 end`;
  return sql.raw(
    `case when ${column} ~ '${ZONE_RANGE_PATTERN}' then (2 * rtrim(${part}, 'ab')::int - ${offset})::smallint end`,
  );
}

export const halfZoneMinSql = (column: string) => edgeSql(column, 'min');
export const halfZoneMaxSql = (column: string) => edgeSql(column, 'max');
