/**
 * The planting calendar: which cultivars to sow, plant out, keep under glass or harvest in a month
 * or an ISO week. Exactly one of month or week is asked; the year decides how weeks fall on months.
 */
import type { Database } from '../../db/client.js';
import { BadRequest } from '../../errors.js';
import { isoWeeksIn, monthOfWeek, weeksOfMonth } from './iso-weeks.js';
import { cultivarsToActOn, type When } from './repository.js';
import { ACTIVITIES, type Calendar, type CalendarQuery } from './schemas.js';

export function calendarService({ db }: Database, now: () => Date = () => new Date()) {
  return {
    async calendar(q: CalendarQuery): Promise<Calendar> {
      if ((q.month === undefined) === (q.week === undefined)) {
        const field = q.month === undefined ? 'month' : 'week';
        throw new BadRequest(`${field}: give exactly one of month or week`, { field, in: 'query' });
      }
      const year = q.year ?? now().getUTCFullYear();
      let when: When;
      if (q.week !== undefined) {
        if (q.week > isoWeeksIn(year)) {
          throw new BadRequest(`week: ${year} has only ${isoWeeksIn(year)} ISO weeks`, {
            field: 'week',
            in: 'query',
          });
        }
        when = { week: q.week, month: monthOfWeek(year, q.week) };
      } else {
        when = { month: q.month as number, weeks: weeksOfMonth(year, q.month as number) };
      }
      const activities = q.activity === undefined ? ACTIVITIES : [q.activity];
      const found = await cultivarsToActOn(db, activities, when, q.species, q);
      return {
        year,
        month: when.month,
        week: 'week' in when ? when.week : null,
        weeks: 'week' in when ? [when.week] : when.weeks,
        activities: Object.fromEntries(
          activities.map((activity) => {
            const entries = found.get(activity) ?? [];
            return [
              activity,
              { cultivars: entries.slice(0, q.per_page), has_more: entries.length > q.per_page },
            ];
          }),
        ),
      };
    },
  };
}
