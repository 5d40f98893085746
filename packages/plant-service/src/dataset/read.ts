/**
 * Reads dataset input: a directory of per-resource files (`families.jsonl` or `families.csv`, ...),
 * one such file, or a typed JSON Lines stream (the `GET /api/v1/export` dump: one record per line,
 * its kind in `type`) from a file or standard input. Problems are collected, never thrown, so one
 * run reports every bad line.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type CastingContext, parse } from 'csv-parse';
import type { TSchema } from 'typebox';
import { fromCell } from './csv-cells.js';
import { KIND, KIND_NAMES, KINDS, type Kind, type KindName, kindOfFile } from './kinds.js';
import type { Problem } from './problems.js';

export interface SourceRecord {
  readonly kind: Kind;
  readonly record: Record<string, unknown>;
  readonly file: string;
  readonly line: number;
}

export interface ReadResult {
  records: SourceRecord[];
  problems: Problem[];
}

const FORMATS = ['jsonl', 'csv'] as const;

/**
 * Reads every input (`-` is standard input, as a typed stream). Paths are shown in problems as
 * given, so they read like the command the user typed.
 */
export async function readDataset(inputs: readonly string[], stdin?: Readable): Promise<ReadResult> {
  const result: ReadResult = { records: [], problems: [] };
  for (const input of inputs) {
    if (input === '-') {
      if (!stdin) throw new Error('standard input is not available here');
      await readJsonLines(stdin, '-', undefined, result);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(input)).isDirectory();
    } catch (error) {
      result.problems.push({ file: input, line: 0, message: describeFsError(error) });
      continue;
    }
    if (isDirectory) await readDirectory(input, result);
    else await readFile(input, result);
  }
  return result;
}

async function readDirectory(dir: string, result: ReadResult): Promise<void> {
  const names = new Set(await readdir(dir));
  let found = 0;
  for (const kind of KINDS) {
    const present = FORMATS.filter((f) => names.has(`${kind.file}.${f}`));
    if (present.length > 0) found++;
    if (present.length > 1) {
      result.problems.push({
        file: path.join(dir, kind.file),
        line: 0,
        message: `both ${kind.file}.jsonl and ${kind.file}.csv exist; keep one`,
      });
      continue;
    }
    const format = present[0];
    if (!format) continue;
    await readFile(path.join(dir, `${kind.file}.${format}`), result);
  }
  if (found === 0) {
    result.problems.push({
      file: dir,
      line: 0,
      message: `no dataset files here (expected ${KINDS.map((k) => `${k.file}.jsonl or .csv`).join(', ')})`,
    });
  }
}

async function readFile(file: string, result: ReadResult): Promise<void> {
  const extension = path.extname(file).toLowerCase();
  const kind = kindOfFile(path.basename(file, path.extname(file)));
  if (extension === '.csv') {
    if (!kind) {
      result.problems.push({
        file,
        line: 0,
        message: `a CSV file is named for its resource: ${KINDS.map((k) => `${k.file}.csv`).join(', ')}`,
      });
      return;
    }
    await readCsv(file, kind, result);
    return;
  }
  // Any other file is JSON Lines: a resource's records when named for it, else a typed stream.
  await readJsonLines(createReadStream(file), file, kind, result);
}

function kindFromType(type: unknown, fileKind: Kind | undefined): Kind | string {
  if (fileKind) {
    return type === undefined || type === fileKind.name
      ? fileKind
      : `must be "${fileKind.name}" in a ${fileKind.file} file (or left out)`;
  }
  if (type === undefined) return `is required: one of ${KIND_NAMES.join(', ')}`;
  return typeof type === 'string' && (KIND_NAMES as readonly string[]).includes(type)
    ? KIND[type as KindName]
    : `must be one of ${KIND_NAMES.join(', ')}`;
}

async function readJsonLines(
  input: Readable,
  file: string,
  fileKind: Kind | undefined,
  result: ReadResult,
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (let text of lines) {
      line++;
      if (line === 1) text = text.replace(/^\uFEFF/, '');
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        result.problems.push({ file, line, message: `not valid JSON (${(error as Error).message})` });
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        result.problems.push({ file, line, message: 'must be a JSON object' });
        continue;
      }
      const { type, ...record } = value as Record<string, unknown>;
      const kind = kindFromType(type, fileKind);
      if (typeof kind === 'string') {
        result.problems.push({ file, line, field: 'type', message: kind });
        continue;
      }
      result.records.push({ kind, record, file, line });
    }
  } catch (error) {
    result.problems.push({ file, line: 0, message: describeFsError(error) });
  }
}

async function readCsv(file: string, kind: Kind, result: ReadResult): Promise<void> {
  const properties = kind.schema.properties as Record<string, TSchema>;
  let known: string[] = [];
  const parser = createReadStream(file).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim());
        const seen = new Set<string>();
        for (const name of names) {
          if (!(name in properties)) {
            result.problems.push({ file, line: 1, field: name, message: 'is not a known column' });
          } else if (seen.has(name)) {
            result.problems.push({ file, line: 1, field: name, message: 'appears twice in the header' });
          }
          seen.add(name);
        }
        known = names.filter((n) => n in properties);
        return names;
      },
      // An empty cell is null unless it was quoted (`""`, the empty string).
      cast: (value: string, context: CastingContext) =>
        !context.header && value === '' && !context.quoting ? null : value,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) result.problems.push({ file, line: Number(error.lines), message: error.message });
      },
    }),
  );
  let quotedCrlf = 0;
  try {
    for await (const { record: row, info } of parser as AsyncIterable<{
      record: Record<string, string | null>;
      info: { lines: number };
    }>) {
      // info.lines is the line the record ends on, but quoted cells may span lines, and csv-parse
      // counts a CRLF inside quotes as two lines (for the rest of the file too).
      let innerNewlines = 0;
      for (const cell of Object.values(row)) {
        innerNewlines += cell?.match(/\r\n|\r|\n/g)?.length ?? 0;
        quotedCrlf += cell?.match(/\r\n/g)?.length ?? 0;
      }
      const record: Record<string, unknown> = {};
      for (const name of known) {
        const cell = row[name];
        if (cell !== null && cell !== undefined) record[name] = fromCell(properties[name], cell);
      }
      result.records.push({ kind, record, file, line: info.lines - quotedCrlf - innerNewlines });
    }
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    result.problems.push({ file, line: lines ?? 0, message: describeFsError(error) });
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (error as Error).message;
}
