import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fillDescriptorVersion,
  loadDescriptor,
  VERSION_PLACEHOLDER,
  validateDescriptor,
} from '../src/descriptor.js';
import { ConfigError } from '../src/errors.js';
import { packageRoot } from './helpers/npc-process.js';

const source = await readFile(join(packageRoot, 'plugin.json'), 'utf8');
const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
const built = () => JSON.parse(fillDescriptorVersion(source, pkg.version)) as Record<string, unknown>;

async function write(content: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'npc-descriptor-')), 'plugin.json');
  await writeFile(file, content);
  return file;
}

describe('plugin descriptor', () => {
  it('keeps the version placeholder in the source and fills it from package.json at build', () => {
    expect(JSON.parse(source).version).toBe(VERSION_PLACEHOLDER);
    const descriptor = validateDescriptor(built(), 'built');
    expect(descriptor).toMatchObject({ id: 'npc', version: pkg.version, dependencies: ['web-server'] });
    expect(descriptor.permissions).toEqual([
      'npc.web.spawn',
      'npc.web.move',
      'npc.web.chat',
      'npc.web.look',
      'npc.web.emote',
      'npc.web.status',
      'npc.web.world',
      'npc.web.events',
      'npc.web.metrics',
    ]);
    expect(Object.isFrozen(descriptor)).toBe(true);
  });

  it('loads a built descriptor from a file', async () => {
    const descriptor = await loadDescriptor(await write(fillDescriptorVersion(source, '2.3.4')));
    expect(descriptor.version).toBe('2.3.4');
  });

  it('refuses an unbuilt descriptor, naming the placeholder', async () => {
    const error = await loadDescriptor(await write(source)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join()).toMatch(/version is still the build placeholder/);
  });

  it('lists every problem of a bad descriptor', () => {
    const bad = {
      ...built(),
      id: 'Bad Id',
      dependencies: [],
      permissions: ['npc.web.spawn', 'npc.web.fly'],
      extra: 1,
    };
    const error = (() => {
      try {
        validateDescriptor(bad, 'bad');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error?.problems.some((p) => p.startsWith('/id'))).toBe(true);
    expect(error?.message).toContain('Invalid plugin descriptor bad');

    const wrongNodes = { ...built(), dependencies: [], permissions: ['npc.web.spawn', 'npc.web.fly'] };
    const problems = (() => {
      try {
        validateDescriptor(wrongNodes, 'nodes');
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    })();
    expect(problems).toEqual([
      '/dependencies must include "web-server"',
      '/permissions is missing npc.web.move, npc.web.chat, npc.web.look, npc.web.emote, npc.web.status, npc.web.world, npc.web.events, npc.web.metrics',
      '/permissions has unknown nodes npc.web.fly',
    ]);
  });

  it('reports a missing file and broken JSON clearly', async () => {
    await expect(loadDescriptor('/nonexistent/plugin.json')).rejects.toThrow(
      /not found; run "npm run build"/,
    );
    await expect(loadDescriptor(await write('{ nope'))).rejects.toThrow(/not JSON/);
  });
});
