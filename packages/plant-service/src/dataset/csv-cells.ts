/**
 * CSV cells of the interchange format (data/README.md). A cell is text; the record schema says what
 * it holds:
 * - an empty, unquoted cell is null (unknown); an empty quoted cell (`""`) is the empty string;
 * - booleans are `true` / `false`; numbers are written as in JSON;
 * - arrays are JSON arrays: `["loam","clay"]`, `[4,5,6]`.
 * A cell that does not parse is passed on as text, so validation names the field and the type.
 *
 * Text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage
 * return, after any apostrophes) is written with one `'` in front, the way OWASP advises against CSV
 * injection. Reading strips that one apostrophe again from text cells of that shape, so export →
 * import gives back the same text: `=SUM(A1)` ↔ `'=SUM(A1)`, `'=x` ↔ `''=x`, `'a` stays `'a`.
 * Numbers, booleans and arrays are written as they are (`-3` stays `-3`).
 */
import type { TSchema } from 'typebox';

/** Text a spreadsheet could take for a formula, also when already behind apostrophes. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
/** A text cell the export neutralised: one apostrophe more than the text it holds. */
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/** The cell for a text: formula-like text behind one apostrophe. */
export function textCell(text: string): string {
  return FORMULA_LIKE.test(text) ? `'${text}` : text;
}

/** The text of a text cell: the apostrophe the export put in front removed. */
export function cellText(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The JSON type a property holds besides null. */
function valueType(schema: TSchema | undefined): string | undefined {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  return undefined;
}

/** The value of a non-empty (or quoted empty) cell under the property's schema. */
export function fromCell(schema: TSchema | undefined, cell: string): unknown {
  switch (valueType(schema)) {
    case 'boolean': {
      const lower = cell.trim().toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : cell;
    }
    case 'number':
    case 'integer':
      return JSON_NUMBER.test(cell.trim()) ? Number(cell.trim()) : cell;
    case 'array':
      try {
        return JSON.parse(cell);
      } catch {
        return cell;
      }
    default:
      // Text, or a type not known here: text the export may have neutralised.
      return cellText(cell);
  }
}

/** The cell for a value: null for an unknown value (written as an empty, unquoted cell). */
export function toCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return textCell(value);
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}
