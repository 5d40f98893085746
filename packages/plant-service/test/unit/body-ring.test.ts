import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyRing } from '../../src/lib/body-ring.js';

/** What a first-in, first-out cache of `capacity` bytes holds, laid out the simple way. */
class Model {
  /** Live bodies in the order written, with their places. */
  order: { key: string; text: string; start: number; end: number }[] = [];
  head = 0;
  constructor(readonly capacity: number) {}
  set(key: string, text: string) {
    const bytes = Buffer.byteLength(text);
    if (bytes === 0 || bytes > this.capacity) return;
    this.order = this.order.filter((b) => b.key !== key);
    const start = this.head + bytes > this.capacity ? 0 : this.head;
    const end = start + bytes;
    // Written at the end of the lap: everything not written in this lap, from `start` on, goes.
    const wrapped = start === 0 && this.head !== 0;
    this.order = this.order.filter((b) => {
      const overlaps = b.start < end && b.end > start;
      const lapLeft = wrapped && b.start >= this.head;
      return !(overlaps || lapLeft);
    });
    this.order.push({ key, text, start, end });
    this.head = end;
  }
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
    // Characters of one to four UTF-8 bytes.
    text: fc.string({ unit: fc.constantFrom('x', 'ä', '€', '🌱'), maxLength: 12 }),
    // Kept as the text, or as bytes already encoded (the response cache's compressed bodies).
    asBytes: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom('a', 'b', 'c') }),
);

describe('body ring', () => {
  it('holds exactly the bodies written (as text or as bytes) since their places were last written over, byte for byte, says beforehand which will go, and keeps no empty body nor one larger than itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const ring = new BodyRing<string>(capacity);
        const model = new Model(capacity);
        for (const o of ops) {
          if (o.kind === 'delete') {
            ring.delete(o.key);
            model.order = model.order.filter((b) => b.key !== o.key);
            continue;
          }
          const bytes = Buffer.byteLength(o.text);
          const before = new Set(ring.victims(bytes)?.map((v) => v.key) ?? []);
          const heldBefore = new Set(model.order.map((b) => b.key));
          const fits = bytes > 0 && bytes <= capacity;
          expect(ring.set(o.key, o.asBytes ? Buffer.from(o.text) : o.text, bytes, o.text)).toBe(fits);
          model.set(o.key, o.text);
          if (fits) {
            // The bodies announced as victims are those gone now, the body's own key aside.
            const gone = [...heldBefore].filter((k) => k !== o.key && !model.order.some((b) => b.key === k));
            expect([...before].filter((k) => k !== o.key).sort()).toEqual(gone.sort());
          } else expect(ring.victims(bytes)).toBeUndefined();
        }
        expect(ring.size).toBe(model.order.length);
        expect(ring.held).toBe(model.order.reduce((n, b) => n + Buffer.byteLength(b.text), 0));
        for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
          const kept = model.order.find((b) => b.key === key);
          const slot = ring.get(key);
          expect(slot?.meta, key).toBe(kept?.text);
          if (slot && kept) {
            expect(ring.read(slot).toString('utf8')).toBe(kept.text);
            expect(ring.view(slot).toString('utf8')).toBe(kept.text);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('hands out a copy: a body read and then written over stays as it was read', () => {
    const ring = new BodyRing<null>(8);
    ring.set('a', 'aaaaaaaa', 8, null);
    const read = ring.read(ring.get('a')!);
    ring.set('b', 'bbbbbbbb', 8, null);
    expect(read.toString()).toBe('aaaaaaaa');
    expect(ring.get('a')).toBeUndefined();
    expect(ring.read(ring.get('b')!).toString()).toBe('bbbbbbbb');
  });
});
