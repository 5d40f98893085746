/**
 * Checks a dataset without a database: every record against its schema (derived from the API's,
 * see kinds.ts), no identity twice, no companion of a species with itself, and which references
 * the input does not resolve itself (the import looks those up in the database).
 */

import { describeSchemaError } from '@plants/common/validation-message';
import type { Validator } from 'typebox/compile';
import { Compile } from 'typebox/compile';
import { speciesValueProblems } from '../schema/species-rules.js';
import { identityOf, KIND_NAMES, type Kind, type KindName } from './kinds.js';
import type { Problem } from './problems.js';
import type { SourceRecord } from './read.js';

export interface Where {
  readonly file: string;
  readonly line: number;
  readonly field: string;
}

export interface CheckResult {
  problems: Problem[];
  /** Slugs referred to but not in the input, by the kind they name, with where they are used. */
  unresolved: Map<KindName, Map<string, Where[]>>;
}

const validators = new Map<KindName, Validator>();
function validator(kind: Kind): Validator {
  let v = validators.get(kind.name);
  if (!v) {
    v = Compile(kind.schema);
    validators.set(kind.name, v);
  }
  return v;
}

/** Typebox's errors as problems naming the field, in the words the HTTP API uses. */
function schemaProblems(kind: Kind, source: SourceRecord): Problem[] {
  const problems: Problem[] = [];
  // One problem per field: the first thing wrong with it.
  const reported = new Set<string>();
  const at = (field: string | undefined, message: string) => {
    if (field !== undefined && reported.has(field)) return;
    if (field !== undefined) reported.add(field);
    problems.push({ file: source.file, line: source.line, ...(field ? { field } : {}), message });
  };
  const properties = kind.schema.properties as Record<string, { type?: unknown }>;
  const csv = source.file.toLowerCase().endsWith('.csv');
  for (const error of validator(kind).Errors(source.record)) {
    // TypeBox names every missing property in one error; each is a problem of its own.
    if (error.keyword === 'required') {
      for (const name of (error.params as { requiredProperties: string[] }).requiredProperties) {
        at(name, 'is required');
      }
      continue;
    }
    // Each unknown property is reported on its own, at its own path.
    if (error.keyword === 'additionalProperties') continue;
    const { field, problem } = describeSchemaError([error], 'record');
    const type = field === undefined ? undefined : properties[field]?.type;
    if (error.keyword === 'type' && csv && Array.isArray(type) && type.includes('array')) {
      // In CSV an array is a JSON array in its cell (csv-cells.ts).
      at(field, 'must be a JSON array, e.g. ["a","b"] or [4,5]');
    } else if (error.keyword === 'pattern' && field === 'slug') {
      at(field, 'must be lowercase ASCII letters and digits, single hyphens between');
    } else if (error.keyword === 'pattern' && field?.endsWith('.source')) {
      at(field, 'must be an http or https URL');
    } else {
      at(field, problem);
    }
  }
  // In the order of the schema's fields, whatever order the validator found them in.
  const order = Object.keys(properties);
  const position = (p: Problem) => {
    const i = order.indexOf(p.field?.split('.')[0] ?? '');
    return i < 0 ? order.length : i;
  };
  return problems.sort((x, y) => position(x) - position(y));
}

export function checkDataset(sources: readonly SourceRecord[]): CheckResult {
  const problems: Problem[] = [];
  const seen = new Map<KindName, Map<string, SourceRecord>>(KIND_NAMES.map((k) => [k, new Map()]));

  for (const source of sources) {
    const { kind, record } = source;
    problems.push(...schemaProblems(kind, source));
    // What the schema cannot say, for a field the schema found nothing wrong with.
    for (const { field, problem } of kind.name === 'species' ? speciesValueProblems(record) : []) {
      const reported = problems.some(
        (p) => p.line === source.line && p.file === source.file && p.field?.split('.')[0] === field,
      );
      if (!reported) problems.push({ file: source.file, line: source.line, field, message: problem });
    }
    if (kind.identity.every((f) => typeof record[f] === 'string')) {
      const key = identityOf(kind, record);
      const first = seen.get(kind.name)?.get(key);
      if (first) {
        const what = kind.unordered
          ? `the pair ${kind.identity.map((f) => record[f]).join(' / ')} (in either order)`
          : kind.identity.map((f) => `${f} '${record[f]}'`).join(' and ');
        problems.push({
          file: source.file,
          line: source.line,
          field: kind.identity.join(', '),
          message: `${what} is already on ${first.file === source.file ? 'line ' : `${first.file}:`}${first.line}`,
        });
      } else {
        seen.get(kind.name)?.set(key, source);
      }
    }
    if (kind.unordered) {
      const [a, b] = kind.identity;
      if (a && b && typeof record[a] === 'string' && record[a] === record[b]) {
        problems.push({ file: source.file, line: source.line, field: b, message: `must differ from ${a}` });
      }
    }
  }

  const unresolved = new Map<KindName, Map<string, Where[]>>();
  for (const source of sources) {
    for (const reference of source.kind.references) {
      const slug = source.record[reference.field];
      if (typeof slug !== 'string' || seen.get(reference.target)?.has(slug)) continue;
      const bySlug = unresolved.get(reference.target) ?? new Map<string, Where[]>();
      unresolved.set(reference.target, bySlug);
      const uses = bySlug.get(slug) ?? [];
      uses.push({ file: source.file, line: source.line, field: reference.field });
      bySlug.set(slug, uses);
    }
  }
  return { problems, unresolved };
}

/**
 * Problems for the references the input does not resolve and, when `existing` (the slugs in the
 * database) is given, the database does not either. Without it the message says only "input":
 * `plants check` never looked at a database.
 */
export function unresolvedProblems(
  unresolved: CheckResult['unresolved'],
  existing?: ReadonlyMap<KindName, ReadonlySet<string>>,
): Problem[] {
  const where = existing ? 'in the input or the database' : 'in the input';
  const problems: Problem[] = [];
  for (const [target, bySlug] of unresolved) {
    for (const [slug, uses] of bySlug) {
      if (existing?.get(target)?.has(slug)) continue;
      for (const use of uses) {
        problems.push({
          ...use,
          message: `no ${target.replace('_', ' ')} '${slug}' ${where}`,
        });
      }
    }
  }
  return problems;
}
