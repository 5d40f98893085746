/** Opens the object store the configuration names (STORAGE_BACKEND). */
import { FilesystemStore } from './filesystem-store.js';
import type { ObjectStore } from './object-store.js';
import { S3Store } from './s3-store.js';
import type { StoreConfig } from './storage-config.js';

export function createObjectStore(config: StoreConfig): ObjectStore {
  if (config.backend === 's3') return new S3Store(config);
  return new FilesystemStore(config.root);
}
