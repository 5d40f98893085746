/**
 * CSV cells against formula injection: no text cell the export writes starts with a character a
 * spreadsheet runs as a formula, numbers stay numbers, and reading gives back the text exactly.
 */

import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { fromCell, toCell } from '../../src/dataset/csv-cells.js';
import { Nullable } from '../../src/schema/types.js';

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];
/** Strings rich in the characters that matter, as well as any other. */
const texts = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...FORMULA_START, "'", 'a', ' ', '1') }),
  fc.tuple(fc.constantFrom(...FORMULA_START, "'"), fc.string()).map(([head, tail]) => head + tail),
);

describe('CSV cells', () => {
  it('never start a text cell with =, +, -, @, tab or CR, and read back the same text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const cell = toCell(text) as string;
        expect(FORMULA_START).not.toContain(cell.charAt(0));
        for (const schema of [Type.String(), Nullable(Type.String()), undefined])
          expect(fromCell(schema, cell)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('puts one apostrophe before formula-like text only', () => {
    expect(toCell('=HYPERLINK("http://x")')).toBe(`'=HYPERLINK("http://x")`);
    expect(toCell('-Kälte')).toBe("'-Kälte");
    expect(toCell("'=x")).toBe("''=x");
    expect(toCell("it's")).toBe("it's");
    expect(toCell("'quoted'")).toBe("'quoted'");
  });

  it('writes numbers as numbers, negative ones included', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const cell = toCell(n) as string;
        expect(cell).toBe(String(n));
        expect(fromCell(Type.Number(), cell)).toBe(Object.is(n, -0) ? -0 : n);
      }),
    );
    expect(toCell(-3)).toBe('-3');
    expect(fromCell(Nullable(Type.Integer()), '-3')).toBe(-3);
  });
});
