/**
 * Calendar queries: per activity, one ordered subquery over the cultivars, all in one statement.
 * The array tests are written as `@>` / `&&` so the GIN indexes on the month and week arrays
 * serve them; with a species, its cultivars come from the species index instead.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { cultivars, species } from '../../db/tables.js';
import type { Activity, CalendarEntry } from './schemas.js';

const smallints = (values: number[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::smallint[]`;
// Written as `is null or = '{}'` rather than as a test of cardinality(): the planner estimates
// these from the column's statistics, so it knows when most cultivars match (then it walks the
// name index in order and stops after the page) and when few do (then the GIN indexes find them).
const isEmpty = (column: PgColumn) => sql`(${column} is null or ${column} = '{}')`;

function column(activity: Activity, unit: 'months' | 'weeks'): PgColumn {
  return cultivars[`${activity}_${unit}`];
}

/** When to act, as the calendar asks it: a month with its weeks, or a week with its month. */
export type When = { month: number; weeks: number[] } | { week: number; month: number };

/**
 * An activity's months are its months, or, when it has none, the months of its weeks; its weeks
 * are its weeks, or, when it has none, the weeks of its months.
 */
function activityCondition(activity: Activity, when: When): SQL {
  const months = column(activity, 'months');
  const weeks = column(activity, 'weeks');
  if ('week' in when) {
    return sql`(${weeks} @> ${smallints([when.week])} or (${isEmpty(weeks)} and ${months} @> ${smallints([when.month])}))`;
  }
  return sql`(${months} @> ${smallints([when.month])} or (${isEmpty(months)} and ${weeks} && ${smallints(when.weeks)}))`;
}

export interface CalendarPage {
  page: number;
  per_page: number;
}

export async function cultivarsToActOn(
  ex: Executor,
  activities: readonly Activity[],
  when: When,
  speciesSlug: string | undefined,
  { page, per_page }: CalendarPage,
): Promise<Map<Activity, CalendarEntry[]>> {
  const ofSpecies =
    speciesSlug === undefined
      ? sql`true`
      : sql`${cultivars.species_id} = (select ${species.id} from ${species} where ${species.slug} = ${speciesSlug})`;
  // One more than a page, to tell whether there is a next one.
  const parts = activities.map(
    (activity) => sql`(select ${activity}::text as activity, ${cultivars.id} as id, ${cultivars.slug} as slug,
        ${cultivars.name} as name, ${cultivars.species_id} as species_id
      from ${cultivars}
      where ${ofSpecies} and ${activityCondition(activity, when)}
      order by ${cultivars.name}, ${cultivars.id}
      limit ${per_page + 1} offset ${(page - 1) * per_page})`,
  );
  const result = await ex.execute(sql`
    select c.activity, c.id, c.slug, c.name, s.slug as species_slug, s.name_scientific as species_name_scientific
      from (${sql.join(parts, sql` union all `)}) c
      join ${species} s on s.id = c.species_id`);
  const { rows } = result as unknown as { rows: (CalendarEntry & { activity: Activity })[] };
  const byActivity = new Map<Activity, CalendarEntry[]>(activities.map((a) => [a, []]));
  for (const { activity, ...entry } of rows) byActivity.get(activity)?.push(entry);
  const order = (x: CalendarEntry, y: CalendarEntry) =>
    x.name !== y.name ? (x.name < y.name ? -1 : 1) : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  for (const list of byActivity.values()) list.sort(order);
  return byActivity;
}
