/**
 * An S3-compatible server (s3rver) on 127.0.0.1 with an ephemeral port and a temporary folder,
 * and an S3Store on it: the S3 backend is tested over real HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3Store } from '../../src/storage/s3-store.js';

export interface S3Rig {
  endpoint: string;
  bucket: string;
  /** Environment that points the service's S3 backend at this server. */
  env: Record<string, string>;
  store(): S3Store;
  close(): Promise<void>;
}

export async function startS3(bucket = 'plant-images'): Promise<S3Rig> {
  const directory = await mkdtemp(path.join(tmpdir(), 'plant-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's built-in credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const stores: S3Store[] = [];
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    store() {
      const store = new S3Store({
        endpoint,
        bucket,
        region: 'us-east-1',
        forcePathStyle: true,
        ...credentials,
      });
      stores.push(store);
      return store;
    },
    async close() {
      for (const store of stores) await store.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
