import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpecifiers, sourceFiles, staticImportSpecifiers } from '@plants/common/source-imports';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * The layers of the service, lowest first. A module may import from its own part of src (a folder,
 * or a root file) and from any lower layer; never from a higher one, and never sideways into
 * another part of its own layer, except inside the top layer, which wires everything together.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['lib', 'schema', 'errors.ts'],
  ['db', 'storage'],
  ['auth', 'dataset'],
  ['http'],
  ['resources'],
  ['app.ts', 'server.ts', 'cli', 'config.ts', 'startup-errors.ts', 'dev-idp'],
];
const TOP = LAYERS.length - 1;

/** The part of src a file belongs to: its top folder, or its own name for a root file. */
const partOf = (file: string) => relative(SRC, file).split('/')[0]!;

function layerOf(part: string): number {
  const layer = LAYERS.findIndex((parts) => parts.includes(part));
  if (layer < 0) throw new Error(`${part} is in no layer: add it to LAYERS`);
  return layer;
}

/** Every import between two parts of src, as `from -> to` with the files that make it. */
async function crossings(): Promise<{ from: string; to: string; where: string }[]> {
  const found: { from: string; to: string; where: string }[] = [];
  for (const file of await sourceFiles(SRC)) {
    for (const specifier of importSpecifiers(await readFile(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const from = partOf(file);
      const to = partOf(target);
      if (from !== to)
        found.push({ from, to, where: `${relative(SRC, file)} imports ${relative(SRC, target)}` });
    }
  }
  return found;
}

/**
 * Packages a service loads only when the feature that needs them is used: the AWS SDK with the S3
 * store, sharp with the first image decoded or resized. Loaded at start, each costs resident
 * memory in every deployment, however it is configured.
 */
const LOADED_WHEN_USED = [/^@aws-sdk\//, /^sharp$/];

/** The packages loaded at start by `entry`: every package its static imports reach, through src. */
async function packagesLoadedBy(entry: string): Promise<Map<string, string>> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImportSpecifiers(await readFile(file, 'utf8'))) {
      if (specifier.startsWith('.')) await visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:') && !packages.has(specifier))
        packages.set(specifier, relative(SRC, file));
    }
  };
  await visit(resolve(SRC, entry));
  return packages;
}

/** The parts that lie on a cycle of imports (the strongly connected groups of more than one part). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('architecture', () => {
  it('has every import point down the layers', async () => {
    const offenders = (await crossings())
      .filter(({ from, to }) => {
        const [a, b] = [layerOf(from), layerOf(to)];
        return b > a || (b === a && a !== TOP);
      })
      .map(({ where }) => where);
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between the folders of src', async () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of await crossings()) {
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
    expect(cycles(edges)).toEqual([]);
  });

  it('loads the S3 SDK and sharp only when they are used, not at start', async () => {
    for (const entry of ['server.ts', 'app.ts']) {
      const loaded = await packagesLoadedBy(entry);
      const early = [...loaded]
        .filter(([name]) => LOADED_WHEN_USED.some((pattern) => pattern.test(name)))
        .map(([name, by]) => `${entry}: ${by} imports ${name}`);
      expect(early).toEqual([]);
      // The walk itself reaches the packages every request needs.
      expect(loaded.has('fastify')).toBe(true);
    }
  });

  it('finds the imports and cycles the checks above rely on', () => {
    expect(
      importSpecifiers(
        "import { a } from '../db/a.js';\nexport type { B } from \"./b.js\";\nawait import('./c.js');",
      ),
    ).toEqual(['../db/a.js', './b.js', './c.js']);
    expect(
      staticImportSpecifiers(
        "import a from 'a';\nimport type { B } from 'b';\nexport { c } from './c.js';\n" +
          "import {\n  type D,\n  e,\n} from 'e';\nimport 'f';\nconst g = await import('g');",
      ),
    ).toEqual(['a', './c.js', 'e', 'f']);
    const edges = new Map([
      ['db', new Set(['resources'])],
      ['resources', new Set(['db', 'lib'])],
      ['lib', new Set<string>()],
    ]);
    expect(cycles(edges)).toEqual([['db', 'resources']]);
    expect(layerOf('resources')).toBeGreaterThan(layerOf('db'));
  });
});
