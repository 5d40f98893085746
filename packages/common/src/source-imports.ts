/**
 * The import graph of a TypeScript source tree, read from the text of its files: what the
 * architecture tests of both packages check their layering rules against.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every `.ts` file under `dir`, at any depth. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)],
    ),
  );
  return files.flat().filter((file) => file.endsWith('.ts'));
}

/** The specifiers a module imports or re-exports, static and dynamic. */
export function importSpecifiers(text: string): string[] {
  return [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => (match[1] ?? match[2]) as string);
}

/**
 * The specifiers a module loads as soon as it is loaded itself: its static imports and
 * re-exports, without `import type` / `export type` (erased when compiled) or `import()`.
 */
export function staticImportSpecifiers(text: string): string[] {
  return [
    ...text.matchAll(
      /^\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm,
    ),
  ].map((match) => (match[1] ?? match[2]) as string);
}
