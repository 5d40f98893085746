/** The planting calendar: months, ISO weeks (a week is in the month of its Thursday), filters, paging. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const make = fixtures(t, await t.cookie());
  const fam = await make.family('Solanaceae');
  const tomato = await make.species(fam.id, 'Solanum lycopersicum');
  const pepper = await make.species(fam.id, 'Capsicum annuum');
  await make.cultivar(tomato.id, 'Alpha', { direct_sowing_months: [4], harvesting_months: [8] });
  // Weeks of 2026: week 13 is in March (Thursday 26 March), 14 and 18 in April (2 and 30 April).
  await make.cultivar(tomato.id, 'Beta', { direct_sowing_weeks: [13], transplanting_weeks: [18] });
  await make.cultivar(tomato.id, 'Gamma', { indoor_sowing_months: [3], indoor_sowing_weeks: [14] });
  await make.cultivar(tomato.id, 'Delta', { harvesting_months: [1] });
  await make.cultivar(pepper.id, 'Epsilon', { glasshouse_months: [4], direct_sowing_months: [4] });
});
afterAll(() => t.close());

type Calendar = {
  year: number;
  month: number;
  week: number | null;
  weeks: number[];
  activities: Record<
    string,
    {
      cultivars: { name: string; slug: string; species_slug: string; species_name_scientific: string }[];
      has_more: boolean;
    }
  >;
};
const calendar = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/calendar?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Calendar;
};
const names = (c: Calendar) =>
  Object.fromEntries(Object.entries(c.activities).map(([a, g]) => [a, g.cultivars.map((x) => x.name)]));

describe('GET /api/v1/calendar', () => {
  it('answers a month from months, and from the weeks of cultivars that have only weeks', async () => {
    const c = await calendar('month=4&year=2026');
    expect(c).toMatchObject({ year: 2026, month: 4, week: null, weeks: [14, 15, 16, 17, 18] });
    expect(names(c)).toEqual({
      indoor_sowing: [],
      direct_sowing: ['Alpha', 'Epsilon'],
      transplanting: ['Beta'],
      glasshouse: ['Epsilon'],
      harvesting: [],
    });
    expect(c.activities.direct_sowing?.cultivars[0]).toMatchObject({
      slug: 'solanum-lycopersicum-alpha',
      species_slug: 'solanum-lycopersicum',
      species_name_scientific: 'Solanum lycopersicum',
    });
    expect(names(await calendar('month=3&year=2026'))).toMatchObject({
      direct_sowing: ['Beta'],
      indoor_sowing: ['Gamma'],
    });
  });

  it('answers a week from weeks, and from the month of its Thursday for cultivars with only months', async () => {
    const w14 = await calendar('week=14&year=2026');
    expect(w14).toMatchObject({ month: 4, week: 14, weeks: [14] });
    expect(names(w14)).toEqual({
      indoor_sowing: ['Gamma'],
      direct_sowing: ['Alpha', 'Epsilon'],
      transplanting: [],
      glasshouse: ['Epsilon'],
      harvesting: [],
    });
    // Week 13 of 2026 runs 23–29 March: its Thursday is in March, so April's cultivars are not in it.
    const w13 = await calendar('week=13&year=2026');
    expect(w13.month).toBe(3);
    expect(names(w13)).toMatchObject({ direct_sowing: ['Beta'], indoor_sowing: [] });
  });

  it('maps a week to its month by the year asked for', async () => {
    // Week 5: Thursday 29 January 2026, but Thursday 4 February 2027.
    expect(names(await calendar('week=5&year=2026')).harvesting).toEqual(['Delta']);
    expect(names(await calendar('week=5&year=2027')).harvesting).toEqual([]);
    // Week 1 of 2026 starts on 29 December 2025 and belongs to January.
    expect(names(await calendar('week=1&year=2026')).harvesting).toEqual(['Delta']);
    expect((await calendar('week=53&year=2026')).month).toBe(12);
    expect((await calendar('month=1')).year).toBe(new Date().getUTCFullYear());
  });

  it('filters by species slug and by activity', async () => {
    expect(names(await calendar('month=4&year=2026&species=capsicum-annuum'))).toEqual({
      indoor_sowing: [],
      direct_sowing: ['Epsilon'],
      transplanting: [],
      glasshouse: ['Epsilon'],
      harvesting: [],
    });
    const direct = await calendar('month=4&year=2026&activity=direct_sowing');
    expect(Object.keys(direct.activities)).toEqual(['direct_sowing']);
    const unknown = await calendar('month=4&species=no-such-species');
    for (const group of Object.values(unknown.activities))
      expect(group).toEqual({ cultivars: [], has_more: false });
  });

  it('pages each activity', async () => {
    const first = await calendar('month=4&year=2026&per_page=1');
    expect(first.activities.direct_sowing).toMatchObject({ cultivars: [{ name: 'Alpha' }], has_more: true });
    expect(first.activities.glasshouse).toMatchObject({ cultivars: [{ name: 'Epsilon' }], has_more: false });
    const second = await calendar('month=4&year=2026&per_page=1&page=2');
    expect(second.activities.direct_sowing).toMatchObject({
      cultivars: [{ name: 'Epsilon' }],
      has_more: false,
    });
  });

  it.each([
    ['', 'month'],
    ['year=2026', 'month'],
    ['month=4&week=14', 'week'],
    ['month=0', 'month'],
    ['month=13', 'month'],
    ['week=0', 'week'],
    ['week=54', 'week'],
    ['week=53&year=2025', 'week'],
    ['month=4&activity=pruning', 'activity'],
    ['month=4&per_page=101', 'per_page'],
    ['week=1&page=99999999999999999999', 'page'],
    ['week=1&page=1000001', 'page'],
    ['month=4&colour=red', 'colour'],
  ])('rejects ?%s with a 400 naming %s', async (query, field) => {
    const res = await t.app.inject({ url: `/api/v1/calendar?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatch(new RegExp(`^${field}: `));
  });
});
