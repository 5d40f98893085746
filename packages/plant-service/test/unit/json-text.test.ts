import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonText, jsonArray, pageJson } from '../../src/lib/json-text.js';

const texts = (values: unknown[]) => values.map((v) => JSON.stringify(v) as JsonText);

describe('json-text', () => {
  it('writes an array of record texts as the JSON of the records, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 30 }), (values) => {
        expect(JSON.parse(jsonArray(texts(values)))).toEqual(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a page envelope around record texts, with members after the page fields', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 30 }),
        fc.nat(),
        fc.option(fc.record({ facets: fc.dictionary(fc.string(), fc.array(fc.nat())) }), { nil: undefined }),
        (records, total, extra) => {
          const text = pageJson({ data: texts(records), total, page: 2, per_page: 20 }, extra);
          const expected = { data: records, total, page: 2, per_page: 20, ...extra };
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(expected)));
          expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes empty and single-record lists exactly', () => {
    expect(jsonArray([])).toBe('[]');
    expect(jsonArray(['{"a":1}'])).toBe('[{"a":1}]');
    expect(jsonArray(['1', '2', '3'])).toBe('[1,2,3]');
    expect(pageJson({ data: [], total: 0, page: 1, per_page: 20 })).toBe(
      '{"data":[],"total":0,"page":1,"per_page":20}',
    );
    expect(pageJson({ data: ['{"a":"ä"}'], total: 1, page: 1, per_page: 20 }, { facets: {} })).toBe(
      '{"data":[{"a":"ä"}],"total":1,"page":1,"per_page":20,"facets":{}}',
    );
  });
});
