import { describe, expect, it } from 'vitest';
import { prefixQuery } from '../../src/resources/search/tsquery.js';

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
