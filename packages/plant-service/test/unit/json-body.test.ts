import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/http/json-body.js';

function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

describe('nestsDeeperThan', () => {
  it('agrees with the depth of any JSON value, brackets and quotes in strings included', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', '\u0000') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (v, max) => {
        expect(nestsDeeperThan(JSON.stringify(v), max)).toBe(depth(v) > max);
      }),
      { numRuns: 2_000 },
    );
  });

  it('scans a megabyte in time linear in its length', () => {
    const wide = `[${'[1],'.repeat(250_000)}[1]]`;
    const started = performance.now();
    expect(nestsDeeperThan(wide, 32)).toBe(false);
    expect(nestsDeeperThan('['.repeat(1_000_000), 32)).toBe(true);
    // A scan that rescans per bracket would take minutes here; the bound leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
