/**
 * The S3 backend, for AWS S3 and S3-compatible servers (MinIO, Garage, Ceph RGW), through
 * @aws-sdk/client-s3. Streams of unknown length are uploaded with @aws-sdk/lib-storage, which
 * sends one PUT for small bodies and a multipart upload (5 MiB parts) for larger ones, aborting
 * it when the body fails. Checksums are computed and validated only when an operation requires
 * them: S3-compatible servers that do not know the newer CRC trailers otherwise store streamed
 * uploads with the trailer bytes mixed in.
 */

import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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
}

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

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
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
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: tracked.stream, ContentType: contentType },
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return { size: tracked.bytes };
    } catch (error) {
      if (tracked.error !== undefined) throw tracked.error;
      throw new StorageError(`s3 store: could not write ${key}`, { cause: error });
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

  async close(): Promise<void> {
    this.client.destroy();
  }
}
