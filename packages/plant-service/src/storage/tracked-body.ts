/**
 * Wraps a put's body so the backend can tell the body's own failure (a size limit, a bad image,
 * a client that went away: rethrown as is) from its own (disk or network: StorageError), and
 * counts the bytes that went through.
 */
import { Readable } from 'node:stream';

export interface TrackedBody {
  stream: Readable;
  /** Bytes read from the body so far. */
  readonly bytes: number;
  /** The error the body itself raised, if any. */
  readonly error: unknown;
}

export function trackBody(body: Readable): TrackedBody {
  const state = { bytes: 0, error: undefined as unknown };
  async function* relay() {
    try {
      for await (const chunk of body) {
        state.bytes += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    } catch (error) {
      state.error = error ?? new Error('body stream failed');
      throw error;
    }
  }
  return {
    stream: Readable.from(relay(), { objectMode: false }),
    get bytes() {
      return state.bytes;
    },
    get error() {
      return state.error;
    },
  };
}
