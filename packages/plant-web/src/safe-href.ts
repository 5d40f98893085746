/**
 * The one gate for link targets taken from data: a record's URL fields are written by users, and
 * a `javascript:` or `data:` URL in an `href` runs or shows whatever it says when clicked. Only an
 * absolute http or https URL passes, returned as the URL parser writes it (scheme lower-cased,
 * surrounding whitespace and control characters gone); anything else is not a link.
 */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
