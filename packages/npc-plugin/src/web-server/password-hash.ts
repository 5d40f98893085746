import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);

/**
 * PBKDF2-HMAC-SHA256 iterations for new hashes: OWASP's current figure for this function. Node runs
 * PBKDF2 on libuv's thread pool, off the event loop and without a JavaScript thread of its own, which
 * is why new accounts use it rather than bcrypt (see password-check.ts for bcrypt hashes).
 */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** `$pbkdf2-sha256$i=<iterations>$<salt>$<key>`, salt and key in unpadded base64 (PHC string style). */
export const PBKDF2_HASH = '\\$pbkdf2-sha256\\$i=[1-9]\\d{0,7}\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}';
const PARTS = /^\$pbkdf2-sha256\$i=(\d+)\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/;

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export function isPbkdf2Hash(hash: string): boolean {
  return PARTS.test(hash);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, iterations, KEY_BYTES, 'sha256');
  return `$pbkdf2-sha256$i=${iterations}$${b64(salt)}$${b64(key)}`;
}

/** Whether `password` matches a PBKDF2 hash of this module's format (false for any other string). */
export async function verifyPbkdf2(password: string, hash: string): Promise<boolean> {
  const parts = PARTS.exec(hash);
  if (!parts) return false;
  const expected = Buffer.from(parts[3]!, 'base64');
  const key = await derive(password, Buffer.from(parts[2]!, 'base64'), Number(parts[1]), KEY_BYTES, 'sha256');
  return timingSafeEqual(key, expected);
}

/** A hash no password matches, costing what a real one costs: what an unknown username is checked against. */
export function unmatchableHash(iterations = PBKDF2_ITERATIONS): string {
  return `$pbkdf2-sha256$i=${iterations}$${b64(randomBytes(SALT_BYTES))}$${b64(randomBytes(KEY_BYTES))}`;
}
