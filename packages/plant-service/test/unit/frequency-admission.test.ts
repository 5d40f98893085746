import { describe, expect, it } from 'vitest';
import { FrequencyAdmission } from '../../src/lib/frequency-admission.js';

const fresh = (...keys: string[]) => keys.map((key) => ({ key, stale: false }));

describe('frequency admission', () => {
  it('admits anything while there is room (nothing has to leave)', () => {
    const frequency = new FrequencyAdmission<string>(100, () => 1);
    frequency.touch('a');
    expect(frequency.admits('never-counted', [])).toBe(true);
    expect(frequency.admits('never-counted', fresh('a'))).toBe(false);
  });

  it('once full, admits a key only if it was requested more often than every entry it pushes out', () => {
    const frequency = new FrequencyAdmission<string>(100, () => 1);
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
    const frequency = new FrequencyAdmission<string>(100, () => 1);
    for (let i = 0; i < 5; i++) frequency.touch('old');
    expect(frequency.admits('new', fresh('old'))).toBe(false);
    expect(frequency.admits('new', [{ key: 'old', stale: true }])).toBe(true);
  });

  it('saturates counts at 15 and halves them every ten requests per entry the cache holds, at least every 1,000', () => {
    let entries = 10;
    const frequency = new FrequencyAdmission<string>(100, () => entries);
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

  it('forgets the least recently requested key beyond its bound', () => {
    const frequency = new FrequencyAdmission<string>(2, () => 1);
    for (const key of ['a', 'b', 'a', 'c']) frequency.touch(key);
    expect([frequency.count('a'), frequency.count('b'), frequency.count('c')]).toEqual([2, 0, 1]);
  });
});
