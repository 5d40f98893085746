/**
 * Builds the site (packages/plant-web) once per run, before the browser tests load it, so a
 * fresh clone's `npm test` serves the current pages and never a stale or missing build.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

export default async function setup() {
  // vitest sets NODE_ENV=test, with which the Preact preset would bundle its debugging aids.
  await promisify(execFile)('npm', ['run', 'build', '-w', '@plants/plant-web'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
