import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/backoff.js';

const policy = { firstMs: 1000, maxMs: 10_000 };

describe('backoffDelay', () => {
  it('doubles per attempt up to the maximum', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy, mid))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('adds at most ±20 % jitter and stays within the bounds', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(3200);
    expect(backoffDelay(3, policy, () => 0.999)).toBeGreaterThanOrEqual(4798);
    expect(backoffDelay(3, policy, () => 0.999)).toBeLessThanOrEqual(4800);
    expect(backoffDelay(1, policy, () => 0)).toBe(1000);
    expect(backoffDelay(30, policy, () => 0.999)).toBe(10_000);
  });

  it('spreads the delays of clients retrying at the same attempt', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(3, policy)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(3200);
  });
});
