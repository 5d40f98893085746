import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createDimensionProbe, type ImageFormat } from '../../src/resources/images/image-probe.js';
import { jpeg, png, pngHeader, rotatedJpeg, webp } from '../helpers/storage-images.js';

/** Feeds the probe in chunks of `size` bytes, as a network stream would. */
function probe(format: ImageFormat, data: Buffer, size: number) {
  const p = createDimensionProbe(format);
  for (let i = 0; i < data.length && !p.dimensions; i += size) p.push(data.subarray(i, i + size));
  return p.dimensions;
}

describe('image dimension probe', () => {
  it('reads JPEG, PNG and WebP sizes whatever the chunking', async () => {
    const cases: [ImageFormat, Buffer][] = [
      ['jpeg', await jpeg(321, 123)],
      ['png', await png(321, 123)],
      ['webp', await webp(321, 123)],
      [
        'webp',
        await sharp(await png(321, 123))
          .webp({ lossless: true })
          .toBuffer(),
      ],
    ];
    for (const [format, data] of cases) {
      for (const size of [1, 7, 100, 1 << 20]) {
        expect(probe(format, data, size), `${format} in ${size}-byte chunks`).toEqual({
          width: 321,
          height: 123,
        });
      }
    }
  });

  it('reads an extended (VP8X) WebP', async () => {
    const data = await sharp(await png(50, 40))
      .withMetadata({ orientation: 1 })
      .webp()
      .toBuffer();
    expect(data.toString('latin1', 12, 16)).toBe('VP8X');
    expect(probe('webp', data, 5)).toEqual({ width: 50, height: 40 });
  });

  it('skips large JPEG segments before the frame header without keeping them', async () => {
    const comment = Buffer.alloc(60_000, 0x41);
    const base = await jpeg(64, 48);
    // SOI, then a COM segment, then the rest of the file.
    const com = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2), comment]);
    com.writeUInt16BE(comment.length + 2, 2);
    const data = Buffer.concat([base.subarray(0, 2), com, com, base.subarray(2)]);
    expect(probe('jpeg', data, 1000)).toEqual({ width: 64, height: 48 });
  });

  it('applies the EXIF orientation of a JPEG', async () => {
    expect(probe('jpeg', await rotatedJpeg(), 33)).toEqual({ width: 300, height: 400 });
  });

  it('reads a header-only PNG (pixel limit before decoding)', () => {
    expect(probe('png', pngHeader(10_000, 6_000), 64)).toEqual({ width: 10_000, height: 6_000 });
  });

  it('rejects corrupt headers', () => {
    expect(() => probe('jpeg', Buffer.from([0xff, 0xd8, 0x00, 0x00, 0x00]), 10)).toThrow(/marker/);
    expect(() => probe('jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x04, 0, 0]), 10)).toThrow(/frame/);
    expect(() => probe('png', Buffer.alloc(40), 40)).toThrow(/PNG/);
    expect(() => probe('png', pngHeader(0, 10), 64)).toThrow(/pixels/);
  });
});
