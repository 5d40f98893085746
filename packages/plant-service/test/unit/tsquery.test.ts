import { describe, expect, it } from 'vitest';
import { prefixQuery, typedQueryOf } from '../../src/resources/search/tsquery.js';

describe('prefixQuery', () => {
  it('ANDs every whitespace-separated term as a prefix', () => {
    expect(prefixQuery('toma sola')).toBe("'toma':* & 'sola':*");
  });

  it('keeps letters of any script and digits, and drops everything the tsquery parser would read', () => {
    expect(prefixQuery("Möhre 'x' & | ! ( ) : * \\ \"")).toBe("'Möhre':* & 'x':*");
    expect(prefixQuery("o'neil f1")).toBe("'o':* & 'neil':* & 'f1':*");
  });

  it('returns null when nothing searchable is left', () => {
    expect(prefixQuery('  &|!():*  ')).toBeNull();
    expect(prefixQuery('')).toBeNull();
  });
});

describe('typedQueryOf', () => {
  it('takes the terms before the last as whole words, the last as a prefix from minPrefix characters', () => {
    expect(typedQueryOf(['rote', 'fru'], 4)).toBe("'rote' & 'fru'");
    expect(typedQueryOf(['rote', 'frucht'], 4)).toBe("'rote' & 'frucht':*");
    expect(typedQueryOf(['apfe'], 4)).toBe("'apfe':*");
    expect(typedQueryOf(['apf'], 4)).toBe("'apf'");
  });
});
