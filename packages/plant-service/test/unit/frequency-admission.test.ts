import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { FrequencyAdmission } from '../../src/lib/frequency-admission.js';

const sizeOf = (value: string) => value.length;
const cacheOf = (maxSize: number) => new LRUCache<string, string>({ maxSize, sizeCalculation: sizeOf });

describe('frequency admission', () => {
  it('admits anything while there is room', () => {
    const frequency = new FrequencyAdmission<string>(100, () => 1);
    const cache = cacheOf(10);
    expect(frequency.admits(cache, 'never-counted', 10, sizeOf)).toBe(true);
    cache.set('a', 'xxxxx');
    expect(frequency.admits(cache, 'b', 5, sizeOf)).toBe(true);
    expect(frequency.admits(cache, 'b', 6, sizeOf)).toBe(false);
  });

  it('once full, admits a key only if it was requested more often than every entry it pushes out', () => {
    const frequency = new FrequencyAdmission<string>(100, () => 1);
    const cache = cacheOf(10);
    // b is the least recently used, so it leaves first.
    for (const [key, times] of [
      ['b', 1],
      ['a', 3],
    ] as const) {
      for (let i = 0; i < times; i++) frequency.touch(key);
      cache.set(key, 'xxxxx');
    }
    frequency.touch('c');
    expect(frequency.admits(cache, 'c', 5, sizeOf)).toBe(false); // b has as many requests
    frequency.touch('c');
    expect(frequency.admits(cache, 'c', 5, sizeOf)).toBe(true); // only b leaves
    // Room for c needs both out, and a was requested three times.
    expect(frequency.admits(cache, 'c', 10, sizeOf)).toBe(false);
    frequency.touch('c');
    frequency.touch('c');
    expect(frequency.admits(cache, 'c', 10, sizeOf)).toBe(true);
  });

  it('lets stale entries leave for anything', () => {
    const frequency = new FrequencyAdmission<string>(100, () => 1);
    const cache = cacheOf(10);
    for (let i = 0; i < 5; i++) frequency.touch('old');
    cache.set('old', 'xxxxxxxxxx');
    expect(frequency.admits(cache, 'new', 10, sizeOf)).toBe(false);
    expect(frequency.admits(cache, 'new', 10, sizeOf, (value) => value === 'xxxxxxxxxx')).toBe(true);
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
