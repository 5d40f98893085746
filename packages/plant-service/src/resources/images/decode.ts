/**
 * Decoding a stored image through to its last pixel, the check an upload passes before it is
 * accepted: a valid header (the sniffing) says nothing of the pixel data after it, and an image
 * that does not decode could never be resized or shown. Before decoding, the header says how much
 * memory the pixels will take (width × height × channels × bytes per sample): a small file can
 * describe hundreds of megabytes of pixels, which is refused without decoding them.
 */

import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Sharp } from './sharp.js';
import { MAX_PIXELS } from './upload-stream.js';

/** Bytes per sample of each libvips band format sharp reports as `depth`. */
const SAMPLE_BYTES: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** The pixels would take more memory than allowed; nothing was decoded. */
export class DecodedTooLarge extends Error {
  readonly code = 'IMAGE_DECODED_TOO_LARGE';
  constructor(
    readonly decodedBytes: number,
    readonly description: string,
  ) {
    super(`decodes to ${decodedBytes} bytes of pixels (${description})`);
  }
}

/** The bytes an image's first frame takes decoded, from its header alone, and how that is made up. */
export async function decodedSize(
  sharp: Sharp,
  data: Buffer,
): Promise<{ bytes: number; description: string }> {
  const {
    width = 0,
    height = 0,
    channels = 4,
    depth = 'uchar',
  } = await sharp(data, {
    limitInputPixels: MAX_PIXELS,
  }).metadata();
  const sample = SAMPLE_BYTES[depth] ?? 8;
  return {
    bytes: width * height * channels * sample,
    description: `${width}×${height} pixels, ${channels} channels, ${sample} byte${sample === 1 ? '' : 's'} per sample`,
  };
}

/**
 * Rejects with DecodedTooLarge when the pixels would take more than `maxDecodedBytes`, with
 * sharp's error when `source` is not a whole decodable image (truncated or corrupt pixel data
 * included). Per-channel statistics read every pixel, row by row, keeping none. The source (at
 * most an upload's size) is read into memory once for both steps, and destroyed either way, so a
 * failure leaves no file open.
 */
export async function decodeFully(sharp: Sharp, source: Readable, maxDecodedBytes: number): Promise<void> {
  let data: Buffer;
  try {
    data = await buffer(source);
  } finally {
    source.destroy();
  }
  const size = await decodedSize(sharp, data);
  if (size.bytes > maxDecodedBytes) throw new DecodedTooLarge(size.bytes, size.description);
  await sharp(data, { failOn: 'error', limitInputPixels: MAX_PIXELS, sequentialRead: true }).stats();
}
