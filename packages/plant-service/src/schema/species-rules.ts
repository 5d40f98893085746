/**
 * What a species' values must satisfy beyond their schemas, for the API and the dataset checker
 * alike: a hardiness range runs from the colder zone to the warmer one; flowering months ascend.
 */
import { rangeProblem } from './hardiness.js';

export interface ValueProblem {
  field: string;
  problem: string;
}

/** The problems of the given values (a payload's, or a dataset record's); none for absent or null ones. */
export function speciesValueProblems(values: Readonly<Record<string, unknown>>): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const zone = values.hardiness_zone_usda;
  const zoneProblem = typeof zone === 'string' ? rangeProblem(zone) : null;
  if (zoneProblem !== null) problems.push({ field: 'hardiness_zone_usda', problem: zoneProblem });
  const months = values.flowering_months;
  if (Array.isArray(months) && months.some((m, i) => i > 0 && !(m > months[i - 1]))) {
    problems.push({ field: 'flowering_months', problem: 'must be in ascending order, each month once' });
  }
  return problems;
}
