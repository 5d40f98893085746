/**
 * The S3 backend, for AWS S3 and S3-compatible servers (MinIO, Garage, Ceph RGW), through
 * @aws-sdk/client-s3. A PUT needs its length up front, and an upload's length is known only at
 * its end; so put() spools the body to a file in `spoolDir` (constant memory, whatever the size),
 * then sends it in one PutObject. A failed body never reaches the bucket, there are no multipart
 * uploads to abandon, and sweepIncomplete() removes spool files a crash left behind. Checksums are computed and validated only when an operation
 * requires them: S3-compatible servers that do not know the newer CRC trailers otherwise store
 * streamed uploads with the trailer bytes mixed in.
 */

import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertValidKey, assertValidPrefix } from './keys.js';
import {
  type ByteRange,
  type ObjectInfo,
  ObjectNotFound,
  type ObjectStore,
  type PutOptions,
  StorageError,
} from './object-store.js';
import { trackBody } from './tracked-body.js';

export interface S3StoreOptions {
  /** Omit for AWS S3; e.g. http://127.0.0.1:9000 for MinIO. */
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  /** With both unset, the SDK's default credential chain applies (environment, instance role). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Bucket in the path (`endpoint/bucket/key`) instead of the host name; most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Where put() spools bodies (created when needed); default: the system's temporary folder. */
  spoolDir?: string | undefined;
}

const SPOOL_PREFIX = 'plant-s3-';

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly spoolDir: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.spoolDir = options.spoolDir ?? tmpdir();
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Readable, { contentType }: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    const tracked = trackBody(body);
    const spool = path.join(this.spoolDir, `${SPOOL_PREFIX}${randomUUID()}.part`);
    try {
      await mkdir(this.spoolDir, { recursive: true });
      await pipeline(tracked.stream, createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(spool),
          ContentLength: tracked.bytes,
          ContentType: contentType,
        }),
      );
      return { size: tracked.bytes };
    } catch (error) {
      if (!body.destroyed) body.destroy();
      if (tracked.error !== undefined) throw tracked.error;
      throw new StorageError(`s3 store: could not write ${key}`, { cause: error });
    } finally {
      await unlink(spool).catch(() => {});
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    try {
      const response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // In Node the SDK's body is the HTTP response stream.
      return response.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFound(`no object ${key}`, { cause: error });
      throw new StorageError(`s3 store: could not read ${key}`, { cause: error });
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertValidKey(key);
    try {
      const response = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: response.ContentLength ?? 0,
        etag: response.ETag ?? `"${key}"`,
        lastModified: response.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw new StorageError(`s3 store: could not read ${key}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw new StorageError(`s3 store: could not delete ${key}`, { cause: error });
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    assertValidPrefix(prefix);
    try {
      const pages = paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, ...(prefix ? { Prefix: prefix } : {}) },
      );
      for await (const page of pages) {
        for (const item of page.Contents ?? []) {
          if (!item.Key) continue;
          yield {
            key: item.Key,
            size: item.Size ?? 0,
            etag: item.ETag ?? `"${item.Key}"`,
            lastModified: item.LastModified ?? new Date(0),
          };
        }
      }
    } catch (error) {
      throw new StorageError(`s3 store: could not list ${prefix || '(all)'}`, { cause: error });
    }
  }

  /** Removes spool files older than `olderThan` (left by a crash mid-upload); returns how many. */
  async sweepIncomplete(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.spoolDir).catch(() => [] as string[])) {
      if (!name.startsWith(SPOOL_PREFIX)) continue;
      const file = path.join(this.spoolDir, name);
      const stats = await lstat(file).catch(() => undefined);
      if (stats?.isFile() && stats.mtime < olderThan) {
        await unlink(file).then(
          () => removed++,
          () => {},
        );
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
