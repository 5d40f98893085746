/** Uploading through the API, and looking into the store, for the image tests. */
import type { ObjectStore } from '../../src/storage/object-store.js';
import type { TestApp } from './app.js';
import { uploadForm } from './storage-multipart.js';

export function uploader(t: TestApp, cookie: string) {
  return (
    fields: Record<string, string>,
    file: Buffer,
    filename = 'photo.jpg',
    contentType = 'image/jpeg',
  ) => {
    const form = uploadForm(fields, file, filename, contentType);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/images',
      headers: { cookie, ...form.headers },
      payload: form.payload,
    });
  };
}

export async function storedKeys(store: ObjectStore, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys.sort();
}
