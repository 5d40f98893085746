/**
 * What is wrong with a dataset: one problem per bad field of a bad record, each with its file and
 * line, so a user can fix every one of them in one pass.
 */
export interface Problem {
  /** The file as the user named it (`-` for standard input). */
  readonly file: string;
  /** 1-based line where the record starts; 0 for the file as a whole. */
  readonly line: number;
  /** The record field (a dotted path into arrays), when one field is at fault. */
  readonly field?: string;
  readonly message: string;
}

/** `species.jsonl:12: family: no family 'rosacea' in the input or the database` */
export function formatProblem(p: Problem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}` : p.file;
  return p.field ? `${where}: ${p.field}: ${p.message}` : `${where}: ${p.message}`;
}

/** The input was refused; nothing was written. */
export class InvalidDataset extends Error {
  readonly code = 'INVALID_DATASET';

  constructor(readonly problems: readonly Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the input; nothing was imported`);
    this.name = 'InvalidDataset';
  }
}
