import { describe, expect, it } from 'vitest';
import { isUuid, slugify } from '../../src/lib/slug.js';

describe('slugify', () => {
  it.each([
    ['Solanum lycopersicum', 'solanum-lycopersicum'],
    ['Möhre', 'moehre'],
    ['Gemüse Süßkartoffel', 'gemuese-suesskartoffel'],
    ['Ä Ö Ü', 'ae-oe-ue'],
    ['Crème Brûlée', 'creme-brulee'],
    ['Allium cepa var. aggregatum', 'allium-cepa-var-aggregatum'],
    ['  --Fragaria × ananassa--  ', 'fragaria-ananassa'],
    ['Bingenheimer Saatgut AG', 'bingenheimer-saatgut-ag'],
    ['Łódź', 'lodz'],
  ])('%s → %s', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it('yields only lowercase ASCII letters, digits and single inner hyphens', () => {
    for (const input of ['«Ölbaum»', '日本', 'a  -- b', 'x'.repeat(300)]) {
      expect(slugify(input)).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
      expect(slugify(input).length).toBeLessThanOrEqual(120);
    }
  });
});

describe('isUuid', () => {
  it('tells uuids from slugs', () => {
    expect(isUuid('0b9f2a51-8f67-4bd0-9d2c-0d4a3e7d6f00')).toBe(true);
    expect(isUuid('solanum-lycopersicum')).toBe(false);
    expect(isUuid('0b9f2a51-8f67-4bd0-9d2c-0d4a3e7d6f0')).toBe(false);
  });
});
