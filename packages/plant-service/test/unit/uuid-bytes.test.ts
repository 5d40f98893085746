import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UuidList, uuidArrayText, uuidAt, uuidBytes, uuidIs } from '../../src/lib/uuid-bytes.js';

/** `texts` written into one buffer, record after record. */
function packed(texts: string[]): Buffer {
  const ids = Buffer.alloc(texts.length * 16);
  texts.forEach((text, at) => {
    uuidBytes(text, ids, at);
  });
  return ids;
}

describe('uuids kept as bytes', () => {
  it('read back as the text they were written from, and compare equal only to it', () => {
    fc.assert(
      fc.property(fc.array(fc.uuid(), { minLength: 2, maxLength: 20 }), (texts) => {
        const ids = packed(texts);
        texts.forEach((text, at) => {
          expect(uuidAt(ids, at)).toBe(text);
          expect(uuidIs(ids, at, text)).toBe(true);
        });
        for (let at = 0; at < texts.length; at++) {
          const other = texts[(at + 1) % texts.length] as string;
          expect(uuidIs(ids, at, other)).toBe(other === texts[at]);
        }
      }),
    );
  });

  it('compare unequal to a text one digit off, cut short or of another length', () => {
    const text = randomUUID();
    const ids = packed([text]);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '-') continue;
      const changed = `${text.slice(0, i)}${text[i] === '0' ? '1' : '0'}${text.slice(i + 1)}`;
      expect(uuidIs(ids, 0, changed), changed).toBe(false);
    }
    expect(uuidIs(ids, 0, text.slice(0, 35))).toBe(false);
    expect(uuidIs(ids, 0, `${text}0`)).toBe(false);
    expect(uuidIs(ids, 0, text.replaceAll('-', '_'))).toBe(false);
  });

  it('write a list of them as a PostgreSQL array literal, in the order asked, however long', () => {
    const texts = Array.from({ length: 300 }, () => randomUUID());
    const ids = packed(texts);
    expect(uuidArrayText(ids, [])).toBe('{}');
    expect(uuidArrayText(ids, [2, 0])).toBe(`{${texts[2]},${texts[0]}}`);
    const all = texts.map((_, at) => at).reverse();
    expect(uuidArrayText(ids, all)).toBe(`{${[...texts].reverse().join(',')}}`);
    // A short list after a long one: nothing of the longer is left over.
    expect(uuidArrayText(ids, [1])).toBe(`{${texts[1]}}`);
    expect(uuidAt(ids, 299)).toBe(texts[299]);
  });

  it('collect one after the other past the room expected, and hand out exactly their bytes', () => {
    for (const expected of [0, 1, 3]) {
      const list = new UuidList(expected);
      const texts = Array.from({ length: 10 }, () => randomUUID());
      for (const text of texts) list.push(text);
      expect(list.length).toBe(10);
      const bytes = list.bytes();
      expect(bytes.length).toBe(160);
      expect(texts.map((_, at) => uuidAt(bytes, at))).toEqual(texts);
    }
    expect(new UuidList().bytes().length).toBe(0);
  });
});
