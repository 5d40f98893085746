/** Small real images made with sharp, and hand-made headers for the limit tests. */
import { crc32, createDeflate } from 'node:zlib';
import sharp from 'sharp';

const gradient = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 140, b: 60 } } });

export const jpeg = (width = 400, height = 300) => gradient(width, height).jpeg({ quality: 80 }).toBuffer();
export const png = (width = 400, height = 300) => gradient(width, height).png().toBuffer();
export const webp = (width = 400, height = 300) => gradient(width, height).webp().toBuffer();
export const gif = (width = 40, height = 30) => gradient(width, height).gif().toBuffer();

/** A JPEG stored 400×300 whose EXIF orientation (6) says: display rotated, 300×400. */
export const rotatedJpeg = () => gradient(400, 300).jpeg().withMetadata({ orientation: 6 }).toBuffer();

/**
 * A PNG whose header claims `width`×`height` pixels; the rest is not a valid image. Enough for
 * the pixel limit, which is checked from the header before any decoding.
 */
export function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.writeUInt8(8, 24);
  b.writeUInt8(2, 25);
  return b;
}

/**
 * A decode bomb: a valid PNG of `width`×`height` RGBA pixels at 16 bits per sample, all zero,
 * which deflate shrinks about a thousandfold (7000×7000: 392 MB of pixels in about 400 KB).
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(16, 8); // bits per sample
  header.writeUInt8(6, 9); // RGBA
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (data: Buffer) => compressed.push(data));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + width * 8); // filter byte 0, then zero samples
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(compressed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
