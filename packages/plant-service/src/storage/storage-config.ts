/**
 * The image-storage part of the configuration: which object store, the S3 settings,
 * the upload size limit and the orphan sweep. config.ts spreads `StorageEnv` into its schema and
 * calls `deriveStorageConfig`; every variable is in the root README.
 */
import path from 'node:path';
import { envEnum } from '@plants/common/env';
import { type Static, Type } from 'typebox';

export const STORAGE_BACKENDS = ['filesystem', 's3'] as const;

export const StorageEnv = {
  STORAGE_BACKEND: envEnum(STORAGE_BACKENDS, 'filesystem'),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^/]+' })),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]+$' })),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: false }),
  IMAGE_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 1024 ** 3, default: 10 * 1024 * 1024 }),
  IMAGE_MAX_DECODED_MB: Type.Integer({ minimum: 1, maximum: 4096, default: 150 }),
  IMAGE_WORKERS: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  IMAGE_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 10_000, default: 32 }),
  STORAGE_GC_INTERVAL_MINUTES: Type.Number({ minimum: 0, maximum: 525_600, default: 360 }),
  STORAGE_GC_GRACE_MINUTES: Type.Number({ minimum: 1, maximum: 525_600, default: 60 }),
};

const StorageEnvSchema = Type.Object(StorageEnv);
export type StorageEnvValues = Static<typeof StorageEnvSchema>;

export type StoreConfig =
  | { readonly backend: 'filesystem'; readonly root: string }
  | {
      readonly backend: 's3';
      readonly endpoint: string | undefined;
      readonly bucket: string;
      readonly region: string;
      readonly accessKeyId: string | undefined;
      readonly secretAccessKey: string | undefined;
      readonly forcePathStyle: boolean;
      /** Uploads are spooled here before they are sent (DATA_DIR/spool). */
      readonly spoolDir: string;
    };

export interface StorageConfig {
  readonly store: StoreConfig;
  /** Uploads larger than this are refused with 413 while streaming. */
  readonly imageMaxBytes: number;
  /** Uploads whose pixels decode to more bytes than this are refused (413) before decoding. */
  readonly imageMaxDecodedBytes: number;
  /** Decodes and resizes running at once, and how many more may wait for a turn (then 503). */
  readonly imageWork: { readonly concurrency: number; readonly maxWaiting: number };
  /** How often the running service sweeps orphan objects; 0 switches the sweep off. */
  readonly gcIntervalMs: number;
  /** Objects younger than this are never swept: their upload may still be committing. */
  readonly gcGraceMs: number;
}

const MINUTE_MS = 60_000;

/** Turns the validated variables into StorageConfig, pushing a message per bad combination onto `problems`. */
export function deriveStorageConfig(
  env: StorageEnvValues,
  problems: string[],
  dataDir: string,
): StorageConfig {
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  let store: StoreConfig;
  if (env.STORAGE_BACKEND === 's3') {
    if (!env.S3_BUCKET) problems.push('S3_BUCKET: is required when STORAGE_BACKEND is s3');
    store = Object.freeze({
      backend: 's3',
      endpoint: env.S3_ENDPOINT?.replace(/\/+$/, ''),
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      spoolDir: path.join(dataDir, 'spool'),
    });
  } else {
    store = Object.freeze({ backend: 'filesystem', root: path.join(dataDir, 'images') });
  }
  return Object.freeze({
    store,
    imageMaxBytes: env.IMAGE_MAX_BYTES,
    imageMaxDecodedBytes: env.IMAGE_MAX_DECODED_MB * 1024 * 1024,
    imageWork: Object.freeze({ concurrency: env.IMAGE_WORKERS, maxWaiting: env.IMAGE_QUEUE_MAX }),
    gcIntervalMs: env.STORAGE_GC_INTERVAL_MINUTES * MINUTE_MS,
    gcGraceMs: env.STORAGE_GC_GRACE_MINUTES * MINUTE_MS,
  });
}
