import { readFile } from 'node:fs/promises';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { ConfigError } from './errors.js';

/** The build-time placeholder of the descriptor's version. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is the literal placeholder text, not a template.
export const VERSION_PLACEHOLDER = '${project.version}';

/**
 * The guarded endpoints: the seven commands and reads, the event stream and the metrics. Each has
 * the permission node `<id>.web.<endpoint>`; `/health` is public and has none.
 */
export const ENDPOINTS = [
  'spawn',
  'move',
  'chat',
  'look',
  'emote',
  'status',
  'world',
  'events',
  'metrics',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** The web-server module this plugin registers its routes with. */
export const WEB_SERVER_DEPENDENCY = 'web-server';

const PluginId = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' });

/** Plugin descriptor fields. */
export const PluginDescriptorSchema = Type.Object(
  {
    id: PluginId,
    name: Type.String({ minLength: 1, maxLength: 64 }),
    version: Type.String({ minLength: 1, maxLength: 64 }),
    author: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.String({ minLength: 1, maxLength: 512 }),
    main: Type.String({ minLength: 1 }),
    dependencies: Type.Array(Type.String({ minLength: 1 })),
    permissions: Type.Array(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type PluginDescriptor = Static<typeof PluginDescriptorSchema>;

const checkDescriptor = Compile(PluginDescriptorSchema);

/** Permission node for one endpoint: `<plugin_id>.web.<endpoint>`. */
export function permissionNode(pluginId: string, endpoint: Endpoint): string {
  return `${pluginId}.web.${endpoint}`;
}

/**
 * Validates a parsed descriptor: shape, a filled-in version, the web-server dependency and exactly the
 * permission nodes of ENDPOINTS. Collects every problem so a bad descriptor names them all at once.
 */
export function validateDescriptor(value: unknown, source: string): PluginDescriptor {
  const problems: string[] = [];
  if (!checkDescriptor.Check(value)) {
    for (const error of checkDescriptor.Errors(value)) {
      if (error.keyword === 'boolean') continue; // repeated by the additionalProperties error
      problems.push(`${error.instancePath || '(root)'} ${error.message}`);
    }
    throw new ConfigError(problems, `Invalid plugin descriptor ${source}`);
  }
  if (value.version === VERSION_PLACEHOLDER || value.version.includes('${')) {
    problems.push(`/version is still the build placeholder ${value.version}; run "npm run build"`);
  }
  if (!value.dependencies.includes(WEB_SERVER_DEPENDENCY)) {
    problems.push(`/dependencies must include "${WEB_SERVER_DEPENDENCY}"`);
  }
  const expected = ENDPOINTS.map((endpoint) => permissionNode(value.id, endpoint));
  const missing = expected.filter((node) => !value.permissions.includes(node));
  const unknown = value.permissions.filter((node) => !expected.includes(node));
  if (missing.length > 0) problems.push(`/permissions is missing ${missing.join(', ')}`);
  if (unknown.length > 0) problems.push(`/permissions has unknown nodes ${unknown.join(', ')}`);
  if (problems.length > 0) throw new ConfigError(problems, `Invalid plugin descriptor ${source}`);
  return Object.freeze({
    ...value,
    dependencies: Object.freeze([...value.dependencies]) as string[],
    permissions: Object.freeze([...value.permissions]) as string[],
  });
}

/** Reads and validates a descriptor file; unreadable or non-JSON files are start-up errors too. */
export async function loadDescriptor(file: string): Promise<PluginDescriptor> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const reason =
      (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found; run "npm run build"' : String(cause);
    throw new ConfigError([`${file}: ${reason}`], 'Cannot load the plugin descriptor');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(
      [`${file}: not JSON (${(cause as Error).message})`],
      'Cannot load the plugin descriptor',
    );
  }
  return validateDescriptor(parsed, file);
}

/** The build step: fills the version placeholder from package.json's version. */
export function fillDescriptorVersion(sourceText: string, version: string): string {
  const source = JSON.parse(sourceText) as Record<string, unknown>;
  if (source.version !== VERSION_PLACEHOLDER) {
    throw new ConfigError(
      [`version must be the placeholder ${VERSION_PLACEHOLDER} in the source`],
      'plugin.json',
    );
  }
  return `${JSON.stringify({ ...source, version }, null, 2)}\n`;
}
