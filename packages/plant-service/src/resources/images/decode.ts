/**
 * Decoding a stored image through to its last pixel, the check an upload passes before it is
 * accepted: a valid header (the sniffing) says nothing of the pixel data after it, and an image
 * that does not decode could never be resized or shown.
 */
import type { Readable } from 'node:stream';
import type { Sharp } from './sharp.js';
import { MAX_PIXELS } from './upload-stream.js';

/**
 * Rejects with sharp's error when `source` is not a whole decodable image (truncated or corrupt
 * pixel data included). Per-channel statistics read every pixel, row by row, keeping none.
 * The source is destroyed either way, so a failure leaves no file open.
 */
export async function decodeFully(sharp: Sharp, source: Readable): Promise<void> {
  const decoder = sharp({ failOn: 'error', limitInputPixels: MAX_PIXELS, sequentialRead: true });
  source.once('error', (error) => decoder.destroy(error));
  try {
    await source.pipe(decoder).stats();
  } finally {
    source.destroy();
  }
}
