/**
 * The upload's bytes on their way to the store: the type is taken from the first bytes
 * (file-type's signatures, never the declared type or name), then the rest streams through
 * while the size limit and the pixel limit are checked. Errors surface as the stream's error,
 * so the store's put fails and keeps nothing.
 */
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../../errors.js';
import { createDimensionProbe, type Dimensions, type ImageFormat, ImageHeaderError } from './image-probe.js';

/** Enough for file-type to tell every format it knows. */
const SNIFF_BYTES = 4100;

/** An image of more than 50 megapixels is refused: decoding it would cost too much memory. */
export const MAX_PIXELS = 50_000_000;

const ACCEPTED: Record<string, ImageFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  // An animated PNG is a PNG whose first frame every PNG reader shows.
  'image/apng': 'png',
  'image/webp': 'webp',
};

/** The multipart file stream: busboy marks it truncated when it stopped at the size limit. */
export type UploadFile = Readable & { truncated?: boolean };

export interface SniffedUpload {
  format: ImageFormat;
  /** All the bytes, to hand to the store; fails with 413 or 400 when a limit is crossed. */
  body: Readable;
  /** Known once `body` has been read to its end. */
  readonly dimensions: Dimensions | undefined;
}

export async function sniffUpload(file: UploadFile, maxBytes: number): Promise<SniffedUpload> {
  const source = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    headChunks.push(next.value);
    headLength += next.value.length;
  }
  const head = Buffer.concat(headChunks);
  const abandon = async (error: Error) => {
    await source.return?.();
    throw error;
  };
  if (head.length === 0) return abandon(new BadRequest('file: is empty', { field: 'file' }));
  const detected = await fileTypeFromBuffer(head);
  const format = detected ? ACCEPTED[detected.mime] : undefined;
  if (!format) {
    const what = detected ? detected.mime : 'not a recognised image';
    return abandon(
      new UnsupportedMediaType(`file: ${what}; only JPEG, PNG and WebP images are accepted`, {
        field: 'file',
      }),
    );
  }

  const name = format.toUpperCase();
  const probe = createDimensionProbe(format);
  let total = 0;
  let dimensions: Dimensions | undefined;

  const check = (chunk: Buffer) => {
    total += chunk.length;
    if (total > maxBytes || file.truncated) throw tooLarge(maxBytes);
    if (dimensions) return;
    try {
      probe.push(chunk);
    } catch (error) {
      if (error instanceof ImageHeaderError) {
        throw new BadRequest(`file: not a valid ${name} image (${error.message})`, {
          field: 'file',
        });
      }
      throw error;
    }
    dimensions = probe.dimensions;
    if (dimensions && dimensions.width * dimensions.height > MAX_PIXELS) {
      throw new BadRequest(
        `file: ${dimensions.width}×${dimensions.height} pixels is more than ${MAX_PIXELS / 1e6} megapixels`,
        { field: 'file' },
      );
    }
  };

  async function* all(): AsyncGenerator<Buffer> {
    let finished = ended;
    try {
      check(head);
      yield head;
      while (!finished) {
        const next = await source.next();
        if (next.done) {
          finished = true;
          break;
        }
        check(next.value);
        yield next.value;
      }
      // busboy stops at the limit and marks the stream; the bytes seen equal the limit then.
      if (file.truncated) throw tooLarge(maxBytes);
      if (!dimensions) {
        throw new BadRequest(`file: not a valid ${name} image (header incomplete)`, {
          field: 'file',
        });
      }
    } finally {
      if (!finished) await source.return?.();
    }
  }

  return {
    format,
    body: Readable.from(all(), { objectMode: false }),
    get dimensions() {
      return dimensions;
    },
  };
}

function tooLarge(maxBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(`file: larger than the limit of ${maxBytes} bytes (IMAGE_MAX_BYTES)`, {
    field: 'file',
    limit: maxBytes,
  });
}
