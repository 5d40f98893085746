import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrequencyAdmission } from '../../src/lib/frequency-admission.js';

const fresh = (...keys: string[]) => keys.map((key) => ({ key, stale: false }));

describe('frequency admission', () => {
  it('admits anything while there is room (nothing has to leave)', () => {
    const frequency = new FrequencyAdmission(100, () => 1);
    frequency.touch('a');
    expect(frequency.admits('never-counted', [])).toBe(true);
    expect(frequency.admits('never-counted', fresh('a'))).toBe(false);
  });

  it('once full, admits a key only if it was requested more often than every entry it pushes out', () => {
    const frequency = new FrequencyAdmission(100, () => 1);
    frequency.touch('b');
    for (let i = 0; i < 3; i++) frequency.touch('a');
    frequency.touch('c');
    expect(frequency.admits('c', fresh('b'))).toBe(false); // b has as many requests
    frequency.touch('c');
    expect(frequency.admits('c', fresh('b'))).toBe(true); // only b leaves
    // Room for c needs both out, and a was requested three times.
    expect(frequency.admits('c', fresh('b', 'a'))).toBe(false);
    frequency.touch('c');
    frequency.touch('c');
    expect(frequency.admits('c', fresh('b', 'a'))).toBe(true);
  });

  it('lets stale entries leave for anything', () => {
    const frequency = new FrequencyAdmission(100, () => 1);
    for (let i = 0; i < 5; i++) frequency.touch('old');
    expect(frequency.admits('new', fresh('old'))).toBe(false);
    expect(frequency.admits('new', [{ key: 'old', stale: true }])).toBe(true);
  });

  it('saturates counts at 15 and halves them every ten requests per entry the cache holds, at least every 1,000', () => {
    let entries = 10;
    const frequency = new FrequencyAdmission(100, () => entries);
    for (let i = 0; i < 999; i++) frequency.touch('hot');
    expect(frequency.count('hot')).toBe(15);
    frequency.touch('warm'); // the 1,000th request ends the first period
    expect(frequency.count('hot')).toBe(7);
    expect(frequency.count('warm')).toBe(0); // its 1, halved
    entries = 200;
    for (let i = 0; i < 1_999; i++) frequency.touch('warm');
    expect(frequency.count('warm')).toBe(15);
    expect(frequency.count('hot')).toBe(7);
    frequency.touch('cold'); // the 2,000th request of the second period
    expect(frequency.count('hot')).toBe(3);
    expect(frequency.count('warm')).toBe(7);
    expect(frequency.count('cold')).toBe(0);
  });

  it('counts a few keys exactly, and never fewer requests than a key had, however many keys share its counters', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 64 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 999 }),
        (keys, touched) => {
          // Fewer than 1,000 requests: no count ages in between.
          const frequency = new FrequencyAdmission(keys, () => 1);
          const truth = new Map<string, number>();
          for (const k of touched) {
            const key = `/api/v1/species/s-${k}`;
            frequency.touch(key);
            truth.set(key, (truth.get(key) ?? 0) + 1);
          }
          for (const [key, n] of truth) expect(frequency.count(key)).toBeGreaterThanOrEqual(Math.min(15, n));
        },
      ),
    );
    const frequency = new FrequencyAdmission(16_384, () => 1);
    const keys = Array.from({ length: 20 }, (_, i) => `/api/v1/search?q=${'x'.repeat(i)}`);
    keys.forEach((key, i) => {
      for (let n = 0; n < i % 16; n++) frequency.touch(key);
    });
    expect(keys.map((key) => frequency.count(key))).toEqual(keys.map((_, i) => i % 16));
  });
});
