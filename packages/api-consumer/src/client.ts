/**
 * A client as someone outside the project would write it: types generated from the committed
 * document, calls through openapi-fetch. It only has to typecheck; if the document marks a defaulted
 * parameter as required, drops a field or loosens a type to `any`, this file stops compiling.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../generated/plant-api.js';

type Species = components['schemas']['Species'];

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

/** Lists without paging parameters (they have defaults), then with them. */
export async function firstShrubs(): Promise<string[]> {
  const all = await api.GET('/api/v1/species');
  if (all.error) throw new Error(all.error.error);
  const total: number = all.data.total;
  const page = await api.GET('/api/v1/species', {
    params: { query: { page: 2, per_page: 10, plant_layer: 'shrub', nitrogen_fixer: true } },
  });
  if (page.error) throw new Error(page.error.error);
  // @ts-expect-error page is a number, not a string
  await api.GET('/api/v1/species', { params: { query: { page: '2' } } });
  return page.data.data.map((s) => `${s.name_scientific} (${total})`);
}

/** Reads one species by slug; a 404 is typed as the error body. */
export async function read(slug: string): Promise<Species | undefined> {
  const { data, error, response } = await api.GET('/api/v1/species/{ref}', {
    params: { path: { ref: slug } },
  });
  if (response.status === 404) return undefined;
  if (error) throw new Error(error.error);
  const zone: string | null = data.hardiness_zone_usda;
  // @ts-expect-error the scientific name is never null
  const unsure: null = data.name_scientific;
  void zone;
  void unsure;
  return data;
}

/** Creates a family; the scientific name is required, the other names are not. */
export async function createFamily(cookie: string): Promise<string> {
  const { data, error } = await api.POST('/api/v1/families', {
    body: { name_scientific: 'Apiaceae', name_de: 'Doldenblütler' },
    headers: { cookie },
  });
  if (error) throw new Error(error.error);
  // @ts-expect-error a family cannot be created without its scientific name
  await api.POST('/api/v1/families', { body: { name_de: 'Doldenblütler' } });
  return data.slug;
}

/** Searches; every hit says what it is. */
export async function search(q: string): Promise<string[]> {
  const { data, error } = await api.GET('/api/v1/search', { params: { query: { q, limit: 5 } } });
  if (error) throw new Error(error.error);
  // @ts-expect-error q is required
  await api.GET('/api/v1/search', { params: { query: { limit: 5 } } });
  return data.map((hit) => `${hit.entity_type}: ${hit.name}`);
}
