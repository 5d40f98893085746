/**
 * The object-store interface: image bytes live here, their records in the database.
 * Two backends implement it: the filesystem under DATA_DIR/images and S3-compatible storage.
 * Keys are validated by both (storage/keys.ts) before any I/O.
 */
import type { Readable } from 'node:stream';

/** What the store knows about one object. */
export interface ObjectInfo {
  key: string;
  /** Bytes. */
  size: number;
  /** A strong entity tag, quoted as in an HTTP ETag header (RFC 9110 §8.8.3). */
  etag: string;
  lastModified: Date;
}

/** Inclusive byte offsets, already checked against the object's size. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType: string;
}

export interface ObjectStore {
  readonly kind: 'filesystem' | 's3';
  /**
   * Streams `body` into the object `key`. The object appears whole or not at all: when the body
   * stream errors (e.g. a size limit), nothing is left under `key` and the body's error is thrown.
   * An existing object under `key` is replaced.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** The object's bytes, or the range of them. Throws ObjectNotFound. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** undefined when there is no such object. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (`''` for all), in no particular order. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /**
   * Removes what interrupted writes left behind, older than `olderThan`; returns how many. The
   * filesystem backend's are in its `.tmp/`, the S3 backend's in its spool folder (its bucket only
   * ever receives whole objects).
   */
  sweepIncomplete?(olderThan: Date): Promise<number>;
  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * Storage errors: stable `code`, the backend's error as `cause`. The image service turns
 * StorageError into 503 and ObjectNotFound into 404; InvalidObjectKey never reaches a client
 * (routes only build keys the service validated, and /img answers 404 for malformed ones).
 */
export class StorageError extends Error {
  readonly code: string = 'STORAGE_ERROR';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ObjectNotFound extends StorageError {
  override readonly code = 'OBJECT_NOT_FOUND';
}

export class InvalidObjectKey extends StorageError {
  override readonly code = 'INVALID_OBJECT_KEY';
}
