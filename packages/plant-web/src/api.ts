/**
 * The public JSON API, as this site uses it: same origin, the session cookie travels by itself
 * and a browser's fetch carries `Origin`, which is what the service's CSRF check asks of writes.
 */

/** A 4xx/5xx answer: the API's `error` text and, for a 400, the `field` it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * The header a write names its reason in, for the service's change log: percent-encoded, as a
 * header carries no other characters safely.
 */
function reasonHeader(reason: string | undefined): Record<string, string> {
  const text = reason?.trim();
  return text ? { 'x-change-reason': encodeURIComponent(text) } : {};
}

async function send<T>(method: string, path: string, body?: unknown, reason?: string): Promise<T> {
  const init: RequestInit = { method, headers: { accept: 'application/json', ...reasonHeader(reason) } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const res = await fetch(path, init);
  if (!res.ok) {
    const answer = (await res.json().catch(() => ({}))) as { error?: string; field?: string };
    throw new ApiError(res.status, answer.error ?? `HTTP ${res.status}`, answer.field);
  }
  return (await res.json()) as T;
}

export const api = {
  get: <T>(path: string) => send<T>('GET', path),
  post: <T>(path: string, body: unknown, reason?: string) => send<T>('POST', path, body, reason),
  put: <T>(path: string, body: unknown, reason?: string) => send<T>('PUT', path, body, reason),
  del: (path: string) => send<{ deleted: boolean }>('DELETE', path),
};

/** Builds `path?query` from the defined, non-empty values. */
export function withQuery(
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export type Nullable<T> = T | null;
/** One of the API's evidence levels (the site's list of them comes from the OpenAPI document). */
export type Evidence = Nullable<string>;

/** A record as the API sends it: every field present, null when unknown. */
export type ApiRecord = Record<string, unknown> & { id: string; slug: string };

export interface Family extends ApiRecord {
  name_scientific: string;
  name_en: Nullable<string>;
  name_de: Nullable<string>;
  description: Nullable<string>;
}

export interface Species extends ApiRecord {
  name_scientific: string;
  name_en: Nullable<string>;
  name_de: Nullable<string>;
  family_id: string;
  primary_image_key: Nullable<string>;
  plant_layer: Nullable<string>;
  legal_status: Nullable<LegalStatus[]>;
  hazards: Nullable<Hazard[]>;
  edible_parts: Nullable<EdiblePart[]>;
}

export interface Cultivar extends ApiRecord {
  name: string;
  name_de: Nullable<string>;
  species_id: string;
  primary_image_key: Nullable<string>;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
  facets?: Record<string, { value: string | boolean | null; count: number }[]>;
}

export interface SearchResult {
  entity_type: 'family' | 'species' | 'cultivar';
  id: string;
  slug: string;
  name: string;
  name_en: Nullable<string>;
  name_de: Nullable<string>;
  species_slug: Nullable<string>;
  species_name_scientific: Nullable<string>;
}

export interface Companion {
  id: string;
  relationship: string;
  evidence: Evidence;
  mechanism: Nullable<string>;
  source_url: Nullable<string>;
  species_a_id: string;
  species_a_slug: string;
  species_a_scientific: string;
  species_a_de: Nullable<string>;
  species_b_slug: string;
  species_b_scientific: string;
  species_b_de: Nullable<string>;
}

export interface Image {
  id: string;
  store_key: string;
  caption: Nullable<string>;
  license: Nullable<string>;
  source_url: Nullable<string>;
  is_primary: boolean;
  width: Nullable<number>;
  height: Nullable<number>;
}

export interface Supplier extends ApiRecord {
  id: string;
  slug: string;
  name: string;
  url: Nullable<string>;
  country: Nullable<string>;
  notes: Nullable<string>;
  is_organic: Nullable<boolean>;
  is_biodynamic: Nullable<boolean>;
}

export interface CultivarSupplier {
  id: string;
  supplier_id: string;
  product_url: Nullable<string>;
  price_eur: Nullable<number>;
  pack_size: Nullable<number>;
  pack_unit: Nullable<string>;
  article_number: Nullable<string>;
}

/** A legal status of a species in one jurisdiction (`EU` or an ISO country code). */
export interface LegalStatus {
  jurisdiction: string;
  kind: string;
  source: string;
  note?: string;
}

export interface Hazard {
  kind: string;
  parts: string[];
  text_en: string;
  text_de: string;
  source: string;
}

export interface EdiblePart {
  part: string;
  caution_en?: Nullable<string>;
  caution_de?: Nullable<string>;
}

export interface Member {
  id: string;
  slug: string;
  name_scientific: string;
  name_en: Nullable<string>;
  name_de: Nullable<string>;
  plant_layer: Nullable<string>;
  primary_image_key: Nullable<string>;
  legal_status: Nullable<LegalStatus[]>;
  hazards: Nullable<Hazard[]>;
}

/** One entry of a record's history (the service's change log). */
export interface Change {
  position: number;
  committed_at: string;
  kind: string;
  id: string;
  slug: Nullable<string>;
  op: 'create' | 'update' | 'delete';
  fields: Record<string, { old: unknown; new: unknown }>;
  actor: { kind: 'user' | 'token' | 'import' | 'database'; name: Nullable<string>; email?: Nullable<string> };
  reason: Nullable<string>;
  reverts: Nullable<number>;
}

export interface User {
  id: string;
  email: string;
  name: Nullable<string>;
  admin: boolean;
  can_write: boolean;
}

/** Every record of a paginated list, fetched 100 at a time. */
export async function getAll<T>(
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<Page<T>>(withQuery(path, { ...query, page, per_page: 100 }));
    all.push(...answer.data);
    if (answer.data.length === 0 || all.length >= answer.total) return all;
  }
}
