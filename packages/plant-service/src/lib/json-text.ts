/**
 * JSON that is already written, such as records the database serialised itself: sent as it is,
 * never parsed and serialised again. The type parameter names the shape the text holds, so a
 * route still says what it answers.
 */
export type JsonText<T = unknown> = string & { readonly __jsonOf?: T };

/** The content type a route sets before answering with a JsonText. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `[a,b]` from record texts. */
export function jsonArray<T>(items: readonly JsonText<T>[]): JsonText<T[]> {
  return `[${items.join(',')}]`;
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
  return `{"data":${jsonArray(page.data)},"total":${page.total},"page":${page.page},"per_page":${page.per_page}${rest === '' ? '' : `,${rest}`}}`;
}
