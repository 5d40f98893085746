import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/core/backoff.js';

describe('backoffDelay', () => {
  it('doubles per attempt up to the maximum', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 1000, 10_000, mid))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('adds at most ±20 % jitter and stays within the bounds', () => {
    expect(backoffDelay(3, 1000, 10_000, () => 0)).toBe(3200);
    expect(backoffDelay(3, 1000, 10_000, () => 0.999)).toBeGreaterThanOrEqual(4798);
    expect(backoffDelay(3, 1000, 10_000, () => 0.999)).toBeLessThanOrEqual(4800);
    expect(backoffDelay(1, 1000, 10_000, () => 0)).toBe(1000);
  });
});
