/** Creates records through the API (as a writer), failing loudly when the API refuses. */
import type { TestApp } from './app.js';

type Json = Record<string, unknown> & { id: string; slug: string };

export function fixtures(t: TestApp, cookie: string) {
  async function post(url: string, payload: object): Promise<Json> {
    const res = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    if (res.statusCode !== 200) throw new Error(`POST ${url} → ${res.statusCode} ${res.body}`);
    return res.json();
  }
  return {
    family: (name_scientific: string, extra: object = {}) =>
      post('/api/v1/families', { name_scientific, ...extra }),
    species: (family_id: string, name_scientific: string, extra: object = {}) =>
      post('/api/v1/species', { family_id, name_scientific, ...extra }),
    cultivar: (species_id: string, name: string, extra: object = {}) =>
      post('/api/v1/cultivars', { species_id, name, ...extra }),
    supplier: (name: string, extra: object = {}) => post('/api/v1/suppliers', { name, ...extra }),
    companion: (species_a_id: string, species_b_id: string, relationship = 'beneficial') =>
      post('/api/v1/companions', { species_a_id, species_b_id, relationship }),
  };
}
