import { describe, expect, it } from 'vitest';
import { decideRange, noneMatch } from '../../src/http/conditional.js';

describe('If-None-Match', () => {
  it('matches a listed tag, weakly, or *', () => {
    expect(noneMatch('"a"', '"a"')).toBe(true);
    expect(noneMatch('"x", W/"a"', '"a"')).toBe(true);
    expect(noneMatch('*', '"a"')).toBe(true);
    expect(noneMatch('"b"', '"a"')).toBe(false);
    expect(noneMatch(undefined, '"a"')).toBe(false);
  });
});

describe('Range', () => {
  const etag = '"e"';
  it('serves single ranges, open-ended and suffix ranges, clamped to the size', () => {
    expect(decideRange('bytes=0-9', 100, etag)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(decideRange('bytes=90-', 100, etag)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange('bytes=-10', 100, etag)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange('bytes=-500', 100, etag)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(decideRange('bytes=50-1000', 100, etag)).toEqual({ kind: 'partial', start: 50, end: 99 });
  });

  it('is unsatisfiable past the end', () => {
    expect(decideRange('bytes=100-', 100, etag)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-0', 100, etag)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores malformed headers, several ranges, and a non-matching If-Range', () => {
    for (const header of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes=a-b']) {
      expect(decideRange(header, 100, etag), header).toEqual({ kind: 'full' });
    }
    expect(decideRange(undefined, 100, etag)).toEqual({ kind: 'full' });
    expect(decideRange('bytes=0-1', 100, etag, '"other"')).toEqual({ kind: 'full' });
    expect(decideRange('bytes=0-1', 100, etag, '"e"')).toEqual({ kind: 'partial', start: 0, end: 1 });
  });
});
