import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const make = fixtures(t, await t.cookie());
  const solanaceae = await make.family('Solanaceae', {
    name_en: 'Nightshade family',
    name_de: 'Nachtschattengewächse',
  });
  const apiaceae = await make.family('Apiaceae');
  const tomato = await make.species(solanaceae.id, 'Solanum lycopersicum', {
    name_en: 'Tomato',
    name_de: 'Tomate',
    description: 'Grown for its fruit.',
  });
  await make.species(solanaceae.id, 'Solanum tuberosum', {
    name_en: 'Potato',
    name_de: 'Kartoffel',
    description: 'Often planted after a tomato bed is cleared.',
  });
  await make.species(apiaceae.id, 'Daucus carota', {
    name_en: 'Carrot',
    name_de: 'Möhre',
    other_names: ['Karotte', 'Mohrrübe', 'Gelbe Rübe'],
  });
  const rosaceae = await make.family('Rosaceae', { name_de: 'Rosengewächse' });
  await make.species(rosaceae.id, 'Malus domestica', { name_en: 'Apple', name_de: 'Kulturapfel' });
  await make.species(rosaceae.id, 'Aronia melanocarpa', {
    name_en: 'Black chokeberry',
    name_de: 'Apfelbeere',
  });
  await make.species(rosaceae.id, 'Sorbus domestica', {
    name_en: 'Service tree',
    name_de: 'Speierling',
    description: 'Apfelförmige Früchte.',
  });
  const lamiaceae = await make.family('Lamiaceae');
  await make.species(lamiaceae.id, 'Lavandula angustifolia', { name_en: 'Lavender' });
  await make.species(apiaceae.id, 'Pastinaca sativa', {
    name_en: 'Parsnip',
    name_de: 'Pastinake',
    description: 'Sweeter than a Möhre.',
  });
  await make.cultivar(tomato.id, 'Harzfeuer', {
    description: 'Early red salad tomato.',
    other_names: ['Harz Fire'],
  });
});
afterAll(() => t.close());

const search = async (q: string, extra = '') => {
  const res = await t.app.inject({ url: `/api/v1/search?q=${encodeURIComponent(q)}${extra}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    entity_type: string;
    slug: string;
    name: string;
    name_en: string | null;
    name_de: string | null;
    species_slug: string | null;
    species_name_scientific: string | null;
    rank: number;
    description: string | null;
  }[];
};

describe('search', () => {
  it('ANDs the terms with prefix matching across names', async () => {
    const results = await search('toma sola');
    expect(results[0]).toMatchObject({
      entity_type: 'species',
      slug: 'solanum-lycopersicum',
      name: 'Solanum lycopersicum',
    });
    expect(results.map((r) => r.slug)).not.toContain('daucus-carota');
  });

  it('folds umlauts and accents both ways: mohre and moehre find Möhre', async () => {
    for (const q of ['mohre', 'moehre', 'MÖHRE', 'möh']) {
      expect(
        (await search(q)).map((r) => r.slug),
        q,
      ).toContain('daucus-carota');
    }
  });

  it('ranks a name match above a description-only match', async () => {
    const results = await search('mohre');
    expect(results.map((r) => r.slug)).toEqual(['daucus-carota', 'pastinaca-sativa']);
    expect(results[0]!.rank).toBeGreaterThan(results[1]!.rank);
  });

  it('covers families, species and cultivars', async () => {
    const types = new Set((await search('solan')).map((r) => r.entity_type));
    expect(types).toEqual(new Set(['family', 'species']));
    const cultivar = await search('harzf');
    expect(cultivar).toEqual([
      expect.objectContaining({
        entity_type: 'cultivar',
        name: 'Harzfeuer',
        description: 'Early red salad tomato.',
      }),
    ]);
    expect((await search('nachtschatten'))[0]).toMatchObject({ entity_type: 'family', slug: 'solanaceae' });
  });

  it('is safe against tsquery syntax in the input', async () => {
    for (const q of ["'", "toma'", '&|!():*', 'toma & | ! ( ) : *', '\\', '"toma"', "o'neil", 'toma:*B']) {
      const res = await t.app.inject({ url: `/api/v1/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, q).toBe(200);
    }
    expect(await search('&|!():*')).toEqual([]);
    expect((await search('"toma"')).map((r) => r.slug)).toContain('solanum-lycopersicum');
  });

  it('applies limit (default 20, max 100) and needs a non-blank q', async () => {
    expect(await search('s', '&limit=1')).toHaveLength(1);
    for (const url of [
      '/api/v1/search',
      '/api/v1/search?q=',
      '/api/v1/search?q=%20%20',
      '/api/v1/search?q=a&limit=101',
      '/api/v1/search?q=a&limit=0',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/^(q|limit):/);
    }
  });

  it('finds other_names like names, for species and cultivars', async () => {
    for (const q of ['Karotte', 'Mohrrübe', 'mohrruebe', 'gelbe rube']) {
      expect((await search(q))[0], q).toMatchObject({
        slug: 'daucus-carota',
        name_en: 'Carrot',
        name_de: 'Möhre',
      });
    }
    expect((await search('harz fire'))[0]).toMatchObject({ entity_type: 'cultivar', name: 'Harzfeuer' });
  });

  it("says what it found in the reader's terms: names, and a cultivar's species", async () => {
    const [cultivar] = await search('harzf');
    expect(cultivar).toMatchObject({
      name_en: null,
      name_de: null,
      species_slug: 'solanum-lycopersicum',
      species_name_scientific: 'Solanum lycopersicum',
    });
    const [tomato] = await search('tomate');
    expect(tomato).toMatchObject({
      entity_type: 'species',
      name_en: 'Tomato',
      name_de: 'Tomate',
      species_slug: null,
      species_name_scientific: null,
    });
  });

  it('finds word parts of compound names after prefixes and before descriptions', async () => {
    const results = await search('Apfel');
    expect(results.map((r) => r.slug)).toEqual(['aronia-melanocarpa', 'malus-domestica', 'sorbus-domestica']);
    const [prefix, part, description] = results.map((r) => r.rank);
    expect(prefix).toBeGreaterThanOrEqual(3);
    expect(part).toBeGreaterThanOrEqual(2);
    expect(part).toBeLessThan(3);
    expect(description).toBeGreaterThanOrEqual(1);
    expect(description).toBeLessThan(2);
  });

  it('falls back to similar names when nothing matches: typos still find the plant', async () => {
    for (const [q, slug] of [
      ['tomatoe', 'solanum-lycopersicum'],
      ['lavendel', 'lavandula-angustifolia'],
      ['appel', 'malus-domestica'],
    ] as const) {
      const results = await search(q);
      expect(results[0]?.slug, q).toBe(slug);
      expect(results[0]!.rank, q).toBeLessThan(1);
    }
    // The fallback is only for texts that found nothing otherwise.
    expect((await search('tomato')).every((r) => r.rank >= 1)).toBe(true);
    expect(await search('qqqxxzz')).toEqual([]);
  });

  it('keeps the AND rule in the typo fallback: every term must be similar to a name of the record', async () => {
    // "tomatoe" alone is similar to Tomato, "lavendel" alone to Lavender; no record is both.
    expect((await search('tomatoe'))[0]?.slug).toBe('solanum-lycopersicum');
    expect((await search('lavendel'))[0]?.slug).toBe('lavandula-angustifolia');
    expect(await search('tomatoe lavendel')).toEqual([]);
    // The whole text "lavender qqqq" is similar enough to Lavender's names (0.69), but "qqqq" is
    // similar to none of them.
    expect(await search('lavender qqqq')).toEqual([]);
    // Two typos of one record's names still find it.
    const both = await search('solanun tomatoe');
    expect(both[0]?.slug).toBe('solanum-lycopersicum');
    expect(both.every((r) => r.rank < 1)).toBe(true);
  });

  it('takes a short last term as a whole word in descriptions, and word parts from 4 letters', async () => {
    // "apf": the prefix of a name (Apfelbeere) only; too short to match inside Kulturapfel or to
    // start the description word "Apfelförmige".
    expect((await search('apf')).map((r) => r.slug)).toEqual(['aronia-melanocarpa']);
    expect((await search('apfe')).map((r) => r.slug)).toEqual([
      'aronia-melanocarpa',
      'malus-domestica',
      'sorbus-domestica',
    ]);
    // Terms before the last are finished words: "red salad" finds the description
    // "Early red salad tomato.", "re salad" does not.
    const redSalad = await search('red salad');
    expect(redSalad.map((r) => r.name)).toContain('Harzfeuer');
    expect(redSalad.find((r) => r.name === 'Harzfeuer')!.rank).toBeLessThan(2);
    expect((await search('re salad')).map((r) => r.name)).not.toContain('Harzfeuer');
  });

  it('keeps the words of names current through renames and deletes', async () => {
    const admin = await t.cookie({ admin: true });
    const make = fixtures(t, admin);
    const family = await make.family('Zyxaceae');
    const species = await make.species(family.id, 'Zyxolia testa', { other_names: ['Quarzkraut'] });
    const cultivar = await make.cultivar(species.id, 'Wembelglanz');
    const slugs = async (q: string) => (await search(q)).filter((r) => r.rank >= 1).map((r) => r.slug);
    expect(await slugs('zyxo')).toEqual([species.slug]);
    expect(await slugs('quarz')).toEqual([species.slug]);
    expect(await slugs('wembel')).toEqual([cultivar.slug]);

    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${species.id}`,
      headers: { cookie: admin },
      payload: { name_scientific: 'Vortelia testa', other_names: [] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await slugs('zyxo')).toEqual([]);
    expect(await slugs('quarz')).toEqual([]);
    expect(await slugs('vortel')).toEqual([species.slug]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/cultivars/${cultivar.id}`,
      headers: { cookie: admin },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await slugs('wembel')).toEqual([]);

    // Whatever wrote them, the stored words are exactly the words of every record's names.
    const result = await t.database.db.execute(sql`
      select count(*)::int as n from (
        (select word, entity_type, entity_id, name, names::text from name_words
         except all
         select w, 'family', id, name_scientific, names::text from families, unnest(tsvector_to_array(names)) w
         except all
         select w, 'species', id, name_scientific, names::text from species, unnest(tsvector_to_array(names)) w
         except all
         select w, 'cultivar', id, name, names::text from cultivars, unnest(tsvector_to_array(names)) w)
        union all
        (select w, 'species', id, name_scientific, names::text from species, unnest(tsvector_to_array(names)) w
         except all
         select word, entity_type, entity_id, name, names::text from name_words)
      ) difference`);
    expect((result as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const words = await t.database.db.execute(sql`select count(*)::int as n from name_words`);
    expect((words as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThan(20);
  });
});

describe('search, the bound on name words', () => {
  it('checks at most 2,000 words the longest term starts; a longer term reaches past them', async () => {
    const own = await createTestApp();
    try {
      // 2,100 species whose scientific names are the words boundia0001 … boundia2100, and one more
      // whose word boundiazz sorts after all of them.
      await own.database.db.execute(sql`
        with f as (insert into families (slug, name_scientific) values ('boundaceae', 'Boundaceae') returning id)
        insert into species (slug, family_id, name_scientific, other_names)
        select 'boundia-' || i, f.id, 'Boundia' || lpad(i::text, 4, '0'),
               case when i = 1 then array['Zqtwin'] end
          from f, generate_series(1, 2100) i
        union all
        select 'boundiazz', f.id, 'Boundiazz zqtarget', null from f`);
      const find = async (q: string) => {
        const res = await own.app.inject({ url: `/api/v1/search?q=${encodeURIComponent(q)}` });
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as { slug: string; rank: number }[]).filter((r) => r.rank >= 1).map((r) => r.slug);
      };
      // "boundia" drives the scan: boundia0001 is among its first 2,000 words, boundiazz is not.
      expect(await find('boundia zqt')).toEqual(['boundia-1']);
      expect(await find('boundiaz zqt')).toEqual(['boundiazz']);
    } finally {
      await own.close();
    }
  });

  it('is stated in the served description with its digits grouped', async () => {
    const res = await t.app.inject({ url: '/api/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('the first 2,000 words');
  });
});
