/**
 * The option values of the site's enumerated fields, read at build time from the enums of the
 * service's committed OpenAPI document, so the site never keeps its own copy of them. A value
 * the document has and src/value-labels.ts has no label for stops the build.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { parse } from 'yaml';

export const OPENAPI_PATH = fileURLToPath(new URL('../../plant-service/openapi.yaml', import.meta.url));
export const MODULE_ID = 'virtual:api-vocabulary';
const RESOLVED_ID = `\0${MODULE_ID}`;

type Node = unknown;
const isObject = (node: Node): node is Record<string, Node> =>
  typeof node === 'object' && node !== null && !Array.isArray(node);

/**
 * Every enum of the document under the name of the property or parameter that declares it (an
 * array's items count for the array), the values in the document's order, null left out. A name
 * with several enums (a response narrowing a request's list) gets the union.
 */
export function documentEnums(document: Node): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, values: Node[]) => {
    const list = found.get(name) ?? [];
    for (const value of values) if (typeof value === 'string' && !list.includes(value)) list.push(value);
    found.set(name, list);
  };
  const visit = (node: Node, name: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, name);
      return;
    }
    if (!isObject(node)) return;
    if (name !== undefined && Array.isArray(node.enum)) add(name, node.enum);
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && isObject(child)) {
        for (const [property, schema] of Object.entries(child)) visit(schema, property);
      } else if (key === 'parameters' && Array.isArray(child)) {
        for (const parameter of child) {
          if (isObject(parameter) && typeof parameter.name === 'string')
            visit(parameter.schema, parameter.name);
        }
      } else if (['schema', 'items', 'anyOf', 'oneOf', 'allOf'].includes(key)) {
        visit(child, name);
      } else if (key !== 'enum') {
        visit(child, undefined);
      }
    }
  };
  visit(document, undefined);
  return found;
}

/** The values of each named vocabulary; a name the document has no enum for is an error. */
export function readVocabularies<Name extends string>(
  document: Node,
  names: readonly Name[],
): Record<Name, string[]> {
  const enums = documentEnums(document);
  const missing = names.filter((name) => !enums.has(name));
  if (missing.length > 0) throw new Error(`The OpenAPI document has no enum named ${missing.join(', ')}`);
  return Object.fromEntries(names.map((name) => [name, enums.get(name)!])) as Record<Name, string[]>;
}

/** `vocabulary.value` for every value that has no label. */
export function unlabelled(
  vocabularies: Record<string, readonly string[]>,
  labels: Record<string, Record<string, unknown>>,
): string[] {
  return Object.entries(vocabularies).flatMap(([name, values]) =>
    values.filter((value) => !Object.hasOwn(labels[name] ?? {}, value)).map((value) => `${name}.${value}`),
  );
}

export const readOpenApi = (path = OPENAPI_PATH): Node => parse(readFileSync(path, 'utf8'));

/** Serves `virtual:api-vocabulary`: the values of the vocabularies `labels` names, as a default export. */
export function apiVocabulary(labels: Record<string, Record<string, unknown>>): Plugin {
  return {
    name: 'api-vocabulary',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      this.addWatchFile(OPENAPI_PATH);
      const vocabularies = readVocabularies(readOpenApi(), Object.keys(labels));
      const missing = unlabelled(vocabularies, labels);
      if (missing.length > 0) {
        this.error(`No label in src/value-labels.ts for the API's ${missing.join(', ')}`);
      }
      return `export default ${JSON.stringify(vocabularies)};`;
    },
  };
}
