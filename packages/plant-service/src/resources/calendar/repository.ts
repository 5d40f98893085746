/**
 * Calendar queries: per activity, one ordered subquery over the cultivars, all in one statement.
 * The array tests are written as `@>` / `&&` so the GIN indexes on the month and week arrays
 * serve them; with a species, its cultivars come from the species index instead.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { runPrepared } from '../../db/prepared-sql.js';
import { cultivars, species } from '../../db/tables.js';
import { ACTIVITIES, type Activity, type CalendarEntry } from './schemas.js';

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
 * are its weeks, or, when it has none, the weeks of its months. The month, the week and the weeks
 * are the statement's placeholders.
 */
function activityCondition(activity: Activity, byWeek: boolean): SQL {
  const months = column(activity, 'months');
  const weeks = column(activity, 'weeks');
  const month = sql`array[${sql.placeholder('month')}]::smallint[]`;
  if (byWeek) {
    const week = sql`array[${sql.placeholder('week')}]::smallint[]`;
    return sql`(${weeks} @> ${week} or (${isEmpty(weeks)} and ${months} @> ${month}))`;
  }
  return sql`(${months} @> ${month} or (${isEmpty(months)} and ${weeks} && ${sql.placeholder('weeks')}::smallint[]))`;
}

/**
 * The statement for one shape of request (its activities, month or week, with or without a
 * species), prepared once: building a template of five subqueries cost the service more CPU per
 * request than the rest of the calendar.
 */
function statement(activities: readonly Activity[], byWeek: boolean, bySpecies: boolean): SQL {
  const ofSpecies = bySpecies
    ? sql`${cultivars.species_id} = (select ${species.id} from ${species} where ${species.slug} = ${sql.placeholder('species')})`
    : sql`true`;
  const parts = activities.map(
    (activity) => sql`(select ${activity}::text as activity, ${cultivars.id} as id, ${cultivars.slug} as slug,
        ${cultivars.name} as name, ${cultivars.species_id} as species_id
      from ${cultivars}
      where ${ofSpecies} and ${activityCondition(activity, byWeek)}
      order by ${cultivars.name}, ${cultivars.id}
      limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')})`,
  );
  return sql`
    select c.activity, c.id, c.slug, c.name, s.slug as species_slug, s.name_scientific as species_name_scientific
      from (${sql.join(parts, sql` union all `)}) c
      join ${species} s on s.id = c.species_id`;
}

export interface CalendarPage {
  page: number;
  per_page: number;
}

export async function cultivarsToActOn(
  db: Db,
  activities: readonly Activity[],
  when: When,
  speciesSlug: string | undefined,
  { page, per_page }: CalendarPage,
): Promise<Map<Activity, CalendarEntry[]>> {
  const byWeek = 'week' in when;
  const bySpecies = speciesSlug !== undefined;
  const rows = await runPrepared<CalendarEntry & { activity: Activity }>(
    db,
    `calendar_${activities.map((a) => ACTIVITIES.indexOf(a)).join('')}_${byWeek ? 'week' : 'month'}${bySpecies ? '_species' : ''}`,
    () => statement(activities, byWeek, bySpecies),
    {
      month: when.month,
      ...(byWeek ? { week: when.week } : { weeks: when.weeks }),
      ...(bySpecies ? { species: speciesSlug } : {}),
      // One more than a page, to tell whether there is a next one.
      limit: per_page + 1,
      offset: (page - 1) * per_page,
    },
  );
  const byActivity = new Map<Activity, CalendarEntry[]>(activities.map((a) => [a, []]));
  for (const { activity, ...entry } of rows) byActivity.get(activity)?.push(entry);
  const order = (x: CalendarEntry, y: CalendarEntry) =>
    x.name !== y.name ? (x.name < y.name ? -1 : 1) : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  for (const list of byActivity.values()) list.sort(order);
  return byActivity;
}
