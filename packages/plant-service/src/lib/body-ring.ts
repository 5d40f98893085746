/**
 * Bodies by key in one region of memory, written one after the other around it, the oldest
 * overwritten first (first in, first out). The region is one buffer, allocated once: a body kept
 * or pushed out allocates and frees nothing outside the JavaScript heap.
 *
 * A buffer per body did: under traffic whose keys seldom repeat, every response kept allocated
 * one, every one pushed out left its buffer for the old generation's collector, and their memory
 * counted towards V8's external-memory limit, so the service ran a full collection about every
 * half second and held tens of MB of bodies already pushed out. Eviction in order of writing
 * instead of least recent use: under such traffic the two keep the same share of requests, and it
 * needs no bookkeeping on a read.
 *
 * A body is read out as a copy: a socket may still be sending it when its place is written over.
 */

/** A body held: its key, where its bytes are, and what its owner keeps with it. */
export interface RingSlot<M> {
  readonly key: string;
  readonly bytes: number;
  readonly meta: M;
}

interface Slot<M> extends RingSlot<M> {
  start: number;
  /** False once its key was written again or deleted; its place is free when the writing reaches it. */
  live: boolean;
  /** The next younger slot. */
  next: Slot<M> | undefined;
}

export class BodyRing<M> {
  readonly #region: Buffer;
  readonly #byKey = new Map<string, Slot<M>>();
  /** Where the next body is written, unless it does not fit before the end. */
  #head = 0;
  #oldest: Slot<M> | undefined;
  #newest: Slot<M> | undefined;
  #held = 0;

  constructor(readonly capacity: number) {
    // Its pages are taken from the system only as bodies are first written to them.
    this.#region = Buffer.allocUnsafeSlow(capacity);
  }

  /** Bodies held. */
  get size(): number {
    return this.#byKey.size;
  }

  /** Bytes of the bodies held. */
  get held(): number {
    return this.#held;
  }

  /**
   * Whether a body of `bytes` is kept at all: not if larger than the region, nor if empty (a body
   * that takes no place would have none in the order of places).
   */
  fits(bytes: number): boolean {
    return bytes > 0 && bytes <= this.capacity;
  }

  get(key: string): RingSlot<M> | undefined {
    return this.#byKey.get(key);
  }

  /** A copy of a held body's bytes. */
  read(slot: RingSlot<M>): Buffer {
    const copy = Buffer.allocUnsafe(slot.bytes);
    this.view(slot).copy(copy);
    return copy;
  }

  /**
   * A held body's bytes in place, for reading at once (decoding them, say): the next `set` may
   * write over them.
   */
  view(slot: RingSlot<M>): Buffer {
    const { start, bytes } = slot as Slot<M>;
    return this.#region.subarray(start, start + bytes);
  }

  /**
   * The bodies, oldest first, that writing a body of `bytes` bytes would push out now; undefined
   * if it is not kept (see `fits`).
   */
  victims(bytes: number): RingSlot<M>[] | undefined {
    if (!this.fits(bytes)) return undefined;
    const span = this.#span(bytes);
    const found: RingSlot<M>[] = [];
    for (let s = this.#oldest; s !== undefined && this.#inWay(s, span); s = s.next) if (s.live) found.push(s);
    return found;
  }

  /**
   * Keeps `body` (`bytes` long: a text's UTF-8, or the bytes given) as `key`'s body, in place of an
   * earlier one, pushing out the oldest bodies in its way. False, and nothing kept, if it does not fit.
   */
  set(key: string, body: string | Uint8Array, bytes: number, meta: M): boolean {
    if (!this.fits(bytes)) return false;
    this.delete(key);
    const span = this.#span(bytes);
    while (this.#oldest !== undefined && this.#inWay(this.#oldest, span)) {
      const out = this.#oldest;
      this.#oldest = out.next;
      if (out.live) this.#drop(out);
    }
    if (this.#oldest === undefined) this.#newest = undefined;
    const start = this.#head + bytes > this.capacity ? 0 : this.#head;
    if (typeof body === 'string') this.#region.write(body, start, bytes, 'utf8');
    else this.#region.set(body.subarray(0, bytes), start);
    const slot: Slot<M> = { key, bytes, meta, start, live: true, next: undefined };
    if (this.#newest) this.#newest.next = slot;
    else this.#oldest = slot;
    this.#newest = slot;
    this.#head = start + bytes;
    this.#byKey.set(key, slot);
    this.#held += bytes;
    return true;
  }

  delete(key: string): void {
    const slot = this.#byKey.get(key);
    if (slot) this.#drop(slot);
  }

  #drop(slot: Slot<M>): void {
    slot.live = false;
    this.#byKey.delete(slot.key);
    this.#held -= slot.bytes;
  }

  /**
   * How far from the head, going round, a body of `bytes` reaches: to the end of the region and
   * on from its start when it does not fit before the end (the rest of the lap is given up).
   */
  #span(bytes: number): number {
    return this.#head + bytes > this.capacity ? this.capacity - this.#head + bytes : bytes;
  }

  /**
   * Whether `slot` begins within `span` bytes ahead of the head. Bodies lie in the order written,
   * going round from the head, oldest first, so those in a new body's way are the oldest ones.
   */
  #inWay(slot: Slot<M>, span: number): boolean {
    return (slot.start - this.#head + this.capacity) % this.capacity < span;
  }
}
