/**
 * Build step for the descriptor: reads
 * plugin.json, fills the version from package.json and writes dist/plugin.json, then validates it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillDescriptorVersion, loadDescriptor } from '../src/descriptor.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const source = await readFile(join(root, 'plugin.json'), 'utf8');
const out = join(root, 'dist', 'plugin.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, fillDescriptorVersion(source, pkg.version));
const descriptor = await loadDescriptor(out);
console.log(`wrote ${out} (${descriptor.id} ${descriptor.version})`);
