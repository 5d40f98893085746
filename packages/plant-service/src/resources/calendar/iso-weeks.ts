/**
 * ISO 8601 weeks and the months they belong to. A week belongs to the month of its Thursday (the
 * same day that decides which year an ISO week is in), so every week is in exactly one month.
 */
const DAY_MS = 86_400_000;

/** The Thursday of ISO week `week` of `year`, at 00:00 UTC. */
function thursdayOf(year: number, week: number): Date {
  // 4 January is always in week 1.
  const jan4 = Date.UTC(year, 0, 4);
  const mondayOfWeek1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(mondayOfWeek1 + ((week - 1) * 7 + 3) * DAY_MS);
}

/** 52 or 53: a year has 53 ISO weeks when its 28 December falls in week 53. */
export function isoWeeksIn(year: number): number {
  return thursdayOf(year, 53).getUTCFullYear() === year ? 53 : 52;
}

/** The month (1–12) of a week: the month of its Thursday. */
export function monthOfWeek(year: number, week: number): number {
  return thursdayOf(year, week).getUTCMonth() + 1;
}

/** The weeks of `year` whose Thursday falls in `month`: four or five of them. */
export function weeksOfMonth(year: number, month: number): number[] {
  const weeks: number[] = [];
  for (let week = 1; week <= isoWeeksIn(year); week++)
    if (monthOfWeek(year, week) === month) weeks.push(week);
  return weeks;
}
