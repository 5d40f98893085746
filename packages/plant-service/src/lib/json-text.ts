/**
 * JSON that is already written, such as records the database serialised itself: sent as it is,
 * never parsed and serialised again. The type parameter names the shape the text holds, so a
 * route still says what it answers.
 */
export type JsonText<T = unknown> = string & { readonly __jsonOf?: T };

/** The content type a route sets before answering with a JsonText. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * `head`, the items separated by commas, then `tail`, as one flat string made by one join. Pieces
 * put together by `+` or a template make a rope, which V8 copies into a flat string once more
 * before the text can be hashed or sent: a page of records was copied twice inside the JavaScript
 * heap where once is enough.
 */
function assemble(head: string, items: readonly string[], tail: string): string {
  const n = items.length;
  if (n === 0) return head + tail;
  const parts = items.slice();
  // The ropes made here are short-lived pieces the join reads through without flattening them.
  parts[0] = head + parts[0];
  parts[n - 1] = parts[n - 1] + tail;
  return parts.join(',');
}

/** `[a,b]` from record texts. */
export function jsonArray<T>(items: readonly JsonText<T>[]): JsonText<T[]> {
  return assemble('[', items, ']');
}

/**
 * A page envelope (`data`, `total`, `page`, `per_page`, in that order, as the Page schemas declare
 * them) around record texts; `extra` members follow, serialised as usual.
 */
export function pageJson<T, E extends object = object>(
  page: { data: readonly JsonText<T>[]; total: number; page: number; per_page: number },
  extra?: E,
): JsonText<{ data: T[]; total: number; page: number; per_page: number } & E> {
  const rest = extra === undefined ? '' : JSON.stringify(extra).slice(1, -1);
  return assemble(
    '{"data":[',
    page.data,
    `],"total":${page.total},"page":${page.page},"per_page":${page.per_page}${rest === '' ? '' : `,${rest}`}}`,
  );
}
