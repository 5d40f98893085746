import { describe, expect, it } from 'vitest';
import { rangeIncludes, rangeInterval, rangeProblem, zoneInterval } from '../../src/schema/hardiness.js';

describe('hardiness zones as half-zones', () => {
  it('reads zones and ranges', () => {
    expect(zoneInterval('7')).toEqual({ min: 13, max: 14 });
    expect(zoneInterval('7a')).toEqual({ min: 13, max: 13 });
    expect(zoneInterval('7b')).toEqual({ min: 14, max: 14 });
    expect(rangeInterval('4-8')).toEqual({ min: 7, max: 16 });
    expect(rangeInterval('4b-8a')).toEqual({ min: 8, max: 15 });
    expect(rangeInterval('13b')).toEqual({ min: 26, max: 26 });
    expect(zoneInterval('4-8')).toBeNull();
    expect(rangeInterval('14')).toBeNull();
  });

  it('says what is wrong', () => {
    expect(rangeProblem('4-8')).toBeNull();
    expect(rangeProblem('8-4')).toMatch(/colder zone first/);
    expect(rangeProblem('7b-7a')).toMatch(/colder zone first/);
    expect(rangeProblem('7b-7b')).toBeNull();
    expect(rangeProblem('zone 7')).toMatch(/must be a zone/);
  });

  it('needs the whole zone inside the range; unknown never fits', () => {
    expect(rangeIncludes(rangeInterval('3-7a'), zoneInterval('7a') as never)).toBe(true);
    expect(rangeIncludes(rangeInterval('3-7a'), zoneInterval('7') as never)).toBe(false);
    expect(rangeIncludes(rangeInterval('7b-9'), zoneInterval('7b') as never)).toBe(true);
    expect(rangeIncludes(rangeInterval('7b-9'), zoneInterval('7a') as never)).toBe(false);
    expect(rangeIncludes(null, zoneInterval('7') as never)).toBe(false);
  });
});
