import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOpenApi, readVocabularies, unlabelled } from '../../../plant-web/build/api-vocabulary.js';
import { VALUE_LABELS } from '../../../plant-web/src/value-labels.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const langOf = async (headers: Record<string, string>, url = '/species/daucus-carota') => {
  const res = await t.app.inject({ url, headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  return /<html lang="([a-z]+)">/.exec(res.body)?.[1];
};

describe('web pages', () => {
  it('picks the page language from Accept-Language when no choice is remembered', async () => {
    expect(await langOf({ 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' })).toBe('de');
    expect(await langOf({ 'accept-language': 'fr-FR,en-GB;q=0.8,de;q=0.5' })).toBe('en');
    expect(await langOf({ 'accept-language': 'fr' })).toBe('en');
    expect(await langOf({})).toBe('en');
  });

  it('prefers the remembered choice (cookie lang) to Accept-Language, and ignores other values', async () => {
    expect(await langOf({ cookie: 'lang=en', 'accept-language': 'de' })).toBe('en');
    expect(await langOf({ cookie: 'lang=de', 'accept-language': 'en' }, '/browse')).toBe('de');
    expect(await langOf({ cookie: 'lang=fr', 'accept-language': 'de' }, '/')).toBe('de');
  });

  it('answers the same shell for every page path, varying by cookie and language, never cached stale', async () => {
    for (const url of [
      '/',
      '/browse',
      '/search?q=x',
      '/families/apiaceae',
      '/cultivars/x',
      '/guild/x',
      '/check',
      '/sow',
      '/suppliers',
      '/suppliers/arche-noah',
      '/new',
      '/new/species?family=apiaceae',
      '/new/anything',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toContain('Accept-Language');
    }
  });

  it('keeps unknown paths and unknown assets a JSON 404, and refuses asset names that leave the folder', async () => {
    for (const url of ['/speciesx', '/assets/nope.js']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toEqual(expect.any(String));
    }
    for (const url of ['/assets/..%2Fpackage.json', '/assets/.hidden', '/assets/a..%2F..%2Fx.js']) {
      const outside = await t.app.inject({ url });
      expect(outside.statusCode, url).toBe(400);
      expect(outside.json().error).toMatch(/file/);
    }
  });

  describe("the site's vocabulary", () => {
    const names = Object.keys(VALUE_LABELS);

    it('has a German and an English label for every value the OpenAPI document enumerates', () => {
      const vocabularies = readVocabularies(readOpenApi(), names);
      expect(unlabelled(vocabularies, VALUE_LABELS)).toEqual([]);
      // The options keep the document's order, and narrower lists (a response's) add nothing new.
      expect(vocabularies.plant_layer).toEqual([
        'canopy',
        'sub_canopy',
        'shrub',
        'herb',
        'ground_cover',
        'climber',
        'root',
        'aquatic',
      ]);
      expect(vocabularies.relationship).toEqual(['beneficial', 'antagonistic', 'neutral']);
      for (const labels of Object.values(VALUE_LABELS)) {
        for (const [de, en] of Object.values(labels)) expect(de && en).toBeTruthy();
      }
    });

    it('names a value the API gains that the site has no label for, and a vocabulary the API lacks', () => {
      const document = readOpenApi() as {
        components: { schemas: { Species: { properties: Record<string, { enum: unknown[] }> } } };
        paths: Record<string, { get?: { parameters?: { name: string; schema: { enum?: unknown[] } }[] } }>;
      };
      document.components.schemas.Species.properties.plant_layer?.enum.push('emergent');
      const filter = document.paths['/api/v1/species']?.get?.parameters?.find(
        (p) => p.name === 'drought_tolerance',
      );
      filter?.schema.enum?.push('extreme');
      expect(unlabelled(readVocabularies(document, names), VALUE_LABELS)).toEqual([
        'plant_layer.emergent',
        'drought_tolerance.extreme',
      ]);
      expect(() => readVocabularies(document, [...names, 'soil_colour'])).toThrow(/soil_colour/);
    });
  });
});
