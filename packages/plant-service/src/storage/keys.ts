/**
 * Object keys both backends accept: `/`-separated segments of ASCII letters, digits, `.`, `_`
 * and `-`, none empty and none starting with a dot. That rules out `.` and `..`, absolute paths
 * (a leading `/` makes an empty segment), backslashes, percent-encoded and control characters,
 * and the filesystem backend's own `.tmp` folder.
 */
import { InvalidObjectKey } from './object-store.js';

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
export const MAX_KEY_LENGTH = 512;

export function isValidKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment));
}

export function assertValidKey(key: unknown): asserts key is string {
  if (!isValidKey(key)) throw new InvalidObjectKey(`invalid object key ${JSON.stringify(key)}`);
}

/** Prefixes are keys that may end in `/`, or `''` for everything. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!isValidKey(trimmed)) throw new InvalidObjectKey(`invalid key prefix ${JSON.stringify(prefix)}`);
}
