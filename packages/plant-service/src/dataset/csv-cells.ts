/**
 * CSV cells of the interchange format (data/README.md). A cell is text; the record schema says what
 * it holds:
 * - an empty, unquoted cell is null (unknown); an empty quoted cell (`""`) is the empty string;
 * - booleans are `true` / `false`; numbers are written as in JSON;
 * - arrays are JSON arrays: `["loam","clay"]`, `[4,5,6]`.
 * A cell that does not parse is passed on as text, so validation names the field and the type.
 */
import type { TSchema } from 'typebox';

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
      return cell;
  }
}

/** The cell for a value: null for an unknown value (written as an empty, unquoted cell). */
export function toCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}
