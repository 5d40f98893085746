import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeHref } from '../src/safe-href.js';

const SCHEMES = ['javascript', 'JavaScript', 'data', 'vbscript', 'file', 'blob', 'ftp', 'about', 'mailto'];

describe('safeHref', () => {
  it('lets only absolute http and https URLs through, for any input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.constantFrom(...SCHEMES).map((s) => `${s}:x`),
        ),
        (value) => {
          const href = safeHref(value);
          if (href === undefined) return;
          expect(new URL(href).protocol).toMatch(/^https?:$/);
          // What is returned is already in the parser's form: no whitespace or control characters a browser would strip.
          expect(href).toBe(new URL(href).href);
          expect([...href].some((c) => c.charCodeAt(0) <= 0x20)).toBe(false);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('refuses every other scheme however it is written', () => {
    const disguised = fc
      .tuple(
        fc.constantFrom('', ' ', '\t', '\n', '\u0000', '  \u001f'),
        fc.constantFrom(...SCHEMES),
        fc.constantFrom('', '\t', '\n'),
        fc.string(),
      )
      .map(([lead, scheme, inside, rest]) => {
        const mixed = [...scheme].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
        return `${lead}${mixed.slice(0, 2)}${inside}${mixed.slice(2)}:${rest}`;
      });
    fc.assert(
      fc.property(disguised, (value) => {
        expect(safeHref(value)).toBeUndefined();
      }),
      { numRuns: 5_000 },
    );
    for (const value of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '/relative',
      '',
    ]) {
      expect(safeHref(value), value).toBeUndefined();
    }
  });

  it('keeps http and https URLs in any case', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        expect(safeHref(url)).toBe(new URL(url).href);
      }),
    );
    expect(safeHref('HTTPS://example.org/a?b=1')).toBe('https://example.org/a?b=1');
    expect(safeHref(null)).toBeUndefined();
  });
});
