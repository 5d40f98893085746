import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function problems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
}

describe('storage configuration', () => {
  it('defaults to the filesystem under DATA_DIR/images, 10 MiB uploads, 150 MiB decoded, 2 image workers, a 6-hourly sweep', () => {
    const { storage } = loadConfig({ DATA_DIR: '/srv/plants' });
    expect(storage).toEqual({
      store: { backend: 'filesystem', root: path.resolve('/srv/plants/images') },
      imageMaxBytes: 10 * 1024 * 1024,
      imageMaxDecodedBytes: 150 * 1024 * 1024,
      imageWork: { concurrency: 2, maxWaiting: 32 },
      gcIntervalMs: 6 * 3_600_000,
      gcGraceMs: 3_600_000,
    });
    expect(Object.isFrozen(storage)).toBe(true);
    expect(Object.isFrozen(storage.store)).toBe(true);
  });

  it('reads the S3 settings', () => {
    const { storage } = loadConfig({
      DATA_DIR: '/srv/plants',
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'plants',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      IMAGE_MAX_BYTES: '2048',
      STORAGE_GC_INTERVAL_MINUTES: '0',
    });
    expect(storage).toMatchObject({
      store: {
        backend: 's3',
        endpoint: 'http://127.0.0.1:9000',
        bucket: 'plants',
        region: 'eu-central-1',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
        forcePathStyle: true,
        spoolDir: path.resolve('/srv/plants/spool'),
      },
      imageMaxBytes: 2048,
      gcIntervalMs: 0,
    });
  });

  it('names every bad storage variable', () => {
    const text = problems({
      STORAGE_BACKEND: 'ftp',
      IMAGE_MAX_BYTES: 'lots',
      S3_ENDPOINT: 'minio:9000',
      S3_FORCE_PATH_STYLE: 'maybe',
    });
    expect(text).toMatch(/^STORAGE_BACKEND: "ftp" .*filesystem, s3/m);
    expect(text).toMatch(/^IMAGE_MAX_BYTES: "lots"/m);
    expect(text).toMatch(/^S3_ENDPOINT: "minio:9000"/m);
    expect(text).toMatch(/^S3_FORCE_PATH_STYLE: "maybe"/m);
  });

  it('needs a bucket for S3, and both keys or neither', () => {
    const text = problems({ STORAGE_BACKEND: 's3', S3_ACCESS_KEY_ID: 'id' });
    expect(text).toMatch(/^S3_BUCKET: is required when STORAGE_BACKEND is s3/m);
    expect(text).toMatch(/^S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither/m);
  });
});
