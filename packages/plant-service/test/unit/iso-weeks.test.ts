import { describe, expect, it } from 'vitest';
import { isoWeeksIn, monthOfWeek, weeksOfMonth } from '../../src/resources/calendar/iso-weeks.js';

describe('ISO weeks and their months', () => {
  it('puts a week in the month of its Thursday', () => {
    // 2026-01-01 is a Thursday: week 1 is in January although it starts on 29 December 2025.
    expect(monthOfWeek(2026, 1)).toBe(1);
    expect(monthOfWeek(2026, 13)).toBe(3); // Mon 23 – Sun 29 March
    expect(monthOfWeek(2026, 14)).toBe(4); // Mon 30 March – Sun 5 April: Thursday 2 April
    expect(monthOfWeek(2026, 5)).toBe(1); // Thursday 29 January
    expect(monthOfWeek(2027, 5)).toBe(2); // Thursday 4 February
    // 2025-12-29 starts week 1 of 2026; week 52 of 2025 is in December.
    expect(monthOfWeek(2025, 52)).toBe(12);
    expect(monthOfWeek(2025, 1)).toBe(1); // Mon 30 December 2024, Thursday 2 January
  });

  it('knows which years have 53 weeks', () => {
    expect(isoWeeksIn(2026)).toBe(53);
    expect(isoWeeksIn(2020)).toBe(53);
    expect(isoWeeksIn(2025)).toBe(52);
    expect(isoWeeksIn(2027)).toBe(52);
    expect(monthOfWeek(2026, 53)).toBe(12);
  });

  it('gives every week of a year to exactly one month', () => {
    for (const year of [2024, 2025, 2026, 2027]) {
      const weeks = Array.from({ length: 12 }, (_, m) => weeksOfMonth(year, m + 1));
      expect(weeks.flat()).toEqual(Array.from({ length: isoWeeksIn(year) }, (_, i) => i + 1));
      for (const w of weeks) expect([4, 5]).toContain(w.length);
    }
    expect(weeksOfMonth(2026, 4)).toEqual([14, 15, 16, 17, 18]);
    expect(weeksOfMonth(2026, 3)).toEqual([10, 11, 12, 13]);
  });
});
