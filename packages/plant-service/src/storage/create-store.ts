/**
 * Opens the object store the configuration names (STORAGE_BACKEND). The S3 store, and the AWS SDK
 * with it (~20 MB of resident memory), is loaded only when it is the one configured.
 */
import { FilesystemStore } from './filesystem-store.js';
import type { ObjectStore } from './object-store.js';
import type { StoreConfig } from './storage-config.js';

export async function createObjectStore(config: StoreConfig): Promise<ObjectStore> {
  if (config.backend === 's3') {
    const { S3Store } = await import('./s3-store.js');
    return new S3Store(config);
  }
  return new FilesystemStore(config.root);
}
