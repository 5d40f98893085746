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
  await make.species(apiaceae.id, 'Daucus carota', { name_en: 'Carrot', name_de: 'Möhre' });
  await make.species(apiaceae.id, 'Pastinaca sativa', {
    name_en: 'Parsnip',
    name_de: 'Pastinake',
    description: 'Sweeter than a Möhre.',
  });
  await make.cultivar(tomato.id, 'Harzfeuer', { description: 'Early red salad tomato.' });
});
afterAll(() => t.close());

const search = async (q: string, extra = '') => {
  const res = await t.app.inject({ url: `/api/v1/search?q=${encodeURIComponent(q)}${extra}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    entity_type: string;
    slug: string;
    name: string;
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
});
