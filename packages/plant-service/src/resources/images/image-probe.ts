/**
 * Reads an image's pixel size from its header while the bytes stream past, without keeping
 * them: PNG (IHDR), WebP (VP8, VP8L, VP8X) and JPEG (the first SOF segment, walking and
 * skipping the segments before it). A JPEG's EXIF orientation is honoured, so width and height
 * are as the image is displayed. Only the few bytes still needed are buffered (at most one
 * EXIF segment, 64 KiB).
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export interface Dimensions {
  width: number;
  height: number;
}

export class ImageHeaderError extends Error {
  readonly code = 'IMAGE_HEADER';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Feed every chunk with push(); `dimensions` is set once the header has been read. */
export interface DimensionProbe {
  push(chunk: Buffer): void;
  readonly dimensions: Dimensions | undefined;
}

export function createDimensionProbe(format: ImageFormat): DimensionProbe {
  return format === 'jpeg' ? new JpegProbe() : new FixedHeaderProbe(format);
}

/** PNG and WebP carry their size within the first 30 bytes. */
class FixedHeaderProbe implements DimensionProbe {
  dimensions: Dimensions | undefined;
  private head: Buffer = Buffer.alloc(0);

  constructor(private readonly format: 'png' | 'webp') {}

  push(chunk: Buffer): void {
    if (this.dimensions) return;
    this.head = Buffer.concat([this.head, chunk.subarray(0, 64)]);
    if (this.head.length < 30) return;
    this.dimensions = this.format === 'png' ? pngSize(this.head) : webpSize(this.head);
  }
}

function pngSize(b: Buffer): Dimensions {
  if (!b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR') {
    throw new ImageHeaderError('not a PNG image (no IHDR chunk)');
  }
  return checked(b.readUInt32BE(16), b.readUInt32BE(20));
}

function webpSize(b: Buffer): Dimensions {
  if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') {
    throw new ImageHeaderError('not a WebP image');
  }
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a)
      throw new ImageHeaderError('bad VP8 frame header');
    return checked(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
    if (b[20] !== 0x2f) throw new ImageHeaderError('bad VP8L header');
    const bits = b.readUInt32LE(21);
    return checked((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    // Extended: canvas width-1 and height-1 as 24-bit little-endian numbers.
    return checked(b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  }
  throw new ImageHeaderError(`unknown WebP chunk ${JSON.stringify(chunk)}`);
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks JPEG segments (ITU T.81 B.1.1): FFxx marker, 2-byte length, payload. */
class JpegProbe implements DimensionProbe {
  dimensions: Dimensions | undefined;
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes still to discard (the rest of a segment we do not need). */
  private skip = 0;
  private started = false;
  private orientation = 1;

  push(chunk: Buffer): void {
    if (this.dimensions) return;
    let data = chunk;
    if (this.skip > 0) {
      const n = Math.min(this.skip, data.length);
      this.skip -= n;
      data = data.subarray(n);
    }
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    this.parse();
  }

  private parse(): void {
    let b = this.pending;
    if (!this.started) {
      if (b.length < 2) return;
      if (b[0] !== 0xff || b[1] !== 0xd8) throw new ImageHeaderError('not a JPEG image (no SOI marker)');
      this.started = true;
      b = b.subarray(2);
    }
    for (;;) {
      if (b.length < 2) break;
      if (b[0] !== 0xff) throw new ImageHeaderError('corrupt JPEG: expected a marker');
      const marker = b[1]!;
      if (marker === 0xff) {
        b = b.subarray(1); // fill byte
        continue;
      }
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        b = b.subarray(2); // markers without a length
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) throw new ImageHeaderError('corrupt JPEG: no frame header');
      if (b.length < 4) break;
      const length = b.readUInt16BE(2);
      if (length < 2) throw new ImageHeaderError('corrupt JPEG: bad segment length');
      if (isStartOfFrame(marker)) {
        if (b.length < 9) break;
        const height = b.readUInt16BE(5);
        const width = b.readUInt16BE(7);
        const swap = this.orientation >= 5 && this.orientation <= 8;
        this.dimensions = checked(swap ? height : width, swap ? width : height);
        b = Buffer.alloc(0);
        break;
      }
      if (marker === 0xe1 && this.orientation === 1) {
        // APP1 may be EXIF: keep the whole segment (at most 64 KiB) to read the orientation.
        if (b.length < 2 + length) break;
        this.orientation = exifOrientation(b.subarray(4, 2 + length)) ?? 1;
        b = b.subarray(2 + length);
        continue;
      }
      const total = 2 + length;
      if (b.length >= total) {
        b = b.subarray(total);
      } else {
        this.skip = total - b.length;
        b = Buffer.alloc(0);
        break;
      }
    }
    this.pending = Buffer.from(b);
  }
}

/** The orientation tag (0x0112) of IFD0 in an EXIF APP1 payload, if present and sane. */
export function exifOrientation(payload: Buffer): number | undefined {
  if (payload.length < 14 || payload.toString('latin1', 0, 6) !== 'Exif\0\0') return undefined;
  const tiff = payload.subarray(6);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return undefined;
    if (u16(at) === 0x0112) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

function checked(width: number, height: number): Dimensions {
  if (width < 1 || height < 1) throw new ImageHeaderError('image has no pixels');
  return { width, height };
}
