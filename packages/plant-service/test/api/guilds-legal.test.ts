/**
 * Guilds respect the law: a species on the EU's Union list of invasive species is never a
 * candidate; with `country`, species banned or banned from sale there are not either; both are
 * listed under `excluded` with the statuses that keep them out. The guild check names the members
 * with a legal status or hazards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
const sp: Record<string, { id: string; slug: string }> = {};

const EU_LIST = 'https://eur-lex.europa.eu/eli/reg_impl/2016/1141/oj';
const CH_ORDINANCE = 'https://www.fedlex.admin.ch/eli/cc/2008/614/de';
const UNION = { jurisdiction: 'EU', kind: 'union_list_invasive', source: EU_LIST };
const HAZARD = {
  kind: 'toxic',
  parts: ['whole'],
  text_en: 'Poisonous in all parts.',
  text_de: 'In allen Teilen giftig.',
  source: 'https://toxinfo.ch/',
};

type Member = { slug: string; legal_status: unknown[] | null; hazards: unknown[] | null };
type Guild = {
  species: Member;
  country: string | null;
  functions: Record<string, Member[]>;
  layers: Record<string, Member[]>;
  avoid: Member[];
  excluded: (Member & { reasons: { jurisdiction: string; kind: string }[] })[];
};

beforeAll(async () => {
  t = await createTestApp();
  const writer = await t.cookie();
  const make = fixtures(t, writer);
  const fam = await make.family('Legalaceae');
  const add = async (name: string, extra: object) => {
    const s = await make.species(fam.id, name, extra);
    sp[s.slug] = s;
  };
  await add('Malus lex', { plant_layer: 'sub_canopy', attracts_pollinators: true });
  // The best nitrogen fixer there is, but on the Union list: never a candidate.
  await add('Robinia unionis', {
    plant_layer: 'canopy',
    nitrogen_fixer: true,
    attracts_pollinators: true,
    dynamic_accumulator: true,
    legal_status: [UNION],
  });
  // Banned in Switzerland only, and a beneficial companion of the focal species.
  await add('Rhus helvetica', {
    plant_layer: 'shrub',
    attracts_pollinators: true,
    legal_status: [{ jurisdiction: 'CH', kind: 'sale_banned', source: CH_ORDINANCE, note: 'Annex 2' }],
  });
  // Protected in Germany: protection keeps no species out.
  await add('Pulsatilla protecta', {
    plant_layer: 'herb',
    attracts_pollinators: true,
    legal_status: [
      { jurisdiction: 'DE', kind: 'protected', source: 'https://www.gesetze-im-internet.de/bartschv_2005/' },
    ],
  });
  // Poisonous, allowed: a candidate that carries its hazard.
  await add('Laburnum toxicum', { plant_layer: 'sub_canopy', nitrogen_fixer: true, hazards: [HAZARD] });
  // On the Union list, but without a guild function and unrelated: no candidate anyway, so not listed.
  await add('Elodea nulla', { plant_layer: 'aquatic', legal_status: [UNION] });
  await make.companion(sp['malus-lex']!.id, sp['rhus-helvetica']!.id, 'beneficial');
});
afterAll(() => t.close());

async function guild(query = ''): Promise<Guild> {
  const res = await t.app.inject({ url: `/api/v1/species/malus-lex/guild?limit=20${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const slugsOf = (g: Guild) =>
  new Set([...Object.values(g.functions), ...Object.values(g.layers)].flat().map((c) => c.slug));

describe('guilds and the law', () => {
  it('never suggests a species of the EU Union list, and lists it under excluded with the reason', async () => {
    const g = await guild();
    expect(g.country).toBeNull();
    const candidates = slugsOf(g);
    expect(candidates.has('robinia-unionis')).toBe(false);
    expect(candidates.has('elodea-nulla')).toBe(false);
    // Without a country, a national sale ban is no bar; protection never is.
    expect(candidates.has('rhus-helvetica')).toBe(true);
    expect(candidates.has('pulsatilla-protecta')).toBe(true);
    expect(g.excluded.map((e) => e.slug)).toEqual(['robinia-unionis']);
    expect(g.excluded[0]?.reasons).toEqual([UNION]);
    // A candidate carries its hazards and legal status where people decide.
    const laburnum = g.functions.nitrogen_fixer?.find((c) => c.slug === 'laburnum-toxicum');
    expect(laburnum?.hazards).toEqual([HAZARD]);
    const pulsatilla = g.layers.herb?.find((c) => c.slug === 'pulsatilla-protecta');
    expect(pulsatilla?.legal_status).toEqual([
      expect.objectContaining({ kind: 'protected', jurisdiction: 'DE' }),
    ]);
  });

  it('with a country, also leaves out the species banned or banned from sale there, even a companion', async () => {
    const g = await guild('&country=CH');
    expect(g.country).toBe('CH');
    const candidates = slugsOf(g);
    expect(candidates.has('rhus-helvetica')).toBe(false);
    expect(candidates.has('robinia-unionis')).toBe(false);
    expect(g.excluded.map((e) => [e.slug, e.reasons.map((r) => `${r.kind}:${r.jurisdiction}`)])).toEqual([
      ['rhus-helvetica', ['sale_banned:CH']],
      ['robinia-unionis', ['union_list_invasive:EU']],
    ]);
    // Elsewhere the Swiss ban is no bar.
    expect(slugsOf(await guild('&country=DE')).has('rhus-helvetica')).toBe(true);
  });

  it('lists only those that pass the filters, and refuses a country that is not an ISO alpha-2 code', async () => {
    expect((await guild('&native_status=native')).excluded).toEqual([]);
    for (const country of ['ch', 'CHE', 'C1', '']) {
      const res = await t.app.inject({ url: `/api/v1/species/malus-lex/guild?country=${country}` });
      expect(res.statusCode, country).toBe(400);
    }
  });

  it('the guild check names the members with a legal status and with hazards', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/guilds/check',
      payload: { species: ['malus-lex', 'robinia-unionis', 'laburnum-toxicum', 'pulsatilla-protecta'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json() as { legal_status: Member[]; hazards: Member[]; species: Member[] };
    expect(check.legal_status.map((m) => m.slug)).toEqual(['robinia-unionis', 'pulsatilla-protecta']);
    expect(check.legal_status[0]?.legal_status).toEqual([UNION]);
    expect(check.hazards.map((m) => m.slug)).toEqual(['laburnum-toxicum']);
    expect(check.species.find((m) => m.slug === 'malus-lex')?.legal_status).toBeNull();
  });
});
