import { describe, expect, it } from 'vitest';
import { SlidingWindow } from '../../src/shared/sliding-window.js';

describe('SlidingWindow', () => {
  it('allows `limit` events per window and frees them as they age out', () => {
    let now = 0;
    const window = new SlidingWindow(2, 1000, 100, () => now);
    expect(window.tryHit('a')).toBe(true);
    now = 400;
    expect(window.tryHit('a')).toBe(true);
    expect(window.tryHit('a')).toBe(false);
    expect(window.retryAfterMs('a')).toBe(600);
    expect(window.tryHit('b')).toBe(true);
    now = 1001;
    expect(window.tryHit('a')).toBe(true);
    expect(window.count('a')).toBe(2);
  });

  it('forgets the least recently used key beyond maxKeys', () => {
    const window = new SlidingWindow(1, 1000, 2);
    window.hit('a');
    window.hit('b');
    window.hit('c');
    expect(window.count('a')).toBe(0);
    expect(window.count('c')).toBe(1);
  });
});
