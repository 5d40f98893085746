/**
 * Deterministic synthetic dataset for the benchmarks: 500 families, 50,000 species,
 * 100,000 cultivars, 2,000 suppliers, 200,000 supplier links and 50,000 companion relations,
 * bulk-inserted with multi-row INSERTs. Seeded, so every run loads the same rows. The first species
 * carry the real names of the starter dataset's species (the plants a skewed traffic asks for
 * most); the rest have pseudo-words. BENCH_SCALE (default 1) scales every count, for a quick run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../src/db/client.js';
import { companions, cultivarSuppliers, cultivars, families, species, suppliers } from '../src/db/tables.js';
import { NATIVE_STATUSES, PLANT_LAYERS, TOLERANCE_LEVELS } from '../src/schema/vocabularies.js';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 1)) throw new Error('BENCH_SCALE: a number in (0, 1]');
const scaled = (n: number) => Math.max(10, Math.round(n * SCALE));

export const SIZES = {
  families: scaled(500),
  species: scaled(50_000),
  cultivars: scaled(100_000),
  suppliers: scaled(2_000),
  links: scaled(200_000),
  companions: scaled(50_000),
};

/** The starter dataset's species names: real plant names, in German and English. */
function realNames(): { name_scientific: string; name_en: string; name_de: string }[] {
  const file = new URL('../data/species.jsonl', import.meta.url);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { name_scientific: string; name_en?: string; name_de?: string })
    .map((s) => ({
      name_scientific: s.name_scientific,
      name_en: s.name_en ?? s.name_scientific,
      name_de: s.name_de ?? '',
    }));
}

/** mulberry32: small, fast, deterministic; every benchmark draws from it with a seed of its own. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ra',
  'to',
  'mi',
  'lu',
  'ca',
  've',
  'so',
  'na',
  'pe',
  'di',
  'or',
  'ta',
  'li',
  'ber',
  'sal',
  'qui',
  'mon',
  'fra',
  'gel',
  'bra',
];

export function makeDataset(seed = 42) {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
  const word = (n: number) => Array.from({ length: n }, () => pick(SYLLABLES)).join('');
  const sentence = (words: number) =>
    Array.from({ length: words }, () => word(2 + Math.floor(rnd() * 2))).join(' ');

  const familyRows = Array.from({ length: SIZES.families }, (_, i) => {
    const name = `${word(3)}aceae`;
    return {
      id: randomUUID(),
      slug: `family-${i}`,
      name_scientific: `${name[0]!.toUpperCase()}${name.slice(1)}`,
      name_en: `${word(2)} family`,
      name_de: `${word(2)}gewächse`,
      description: sentence(15),
    };
  });
  const genera = Array.from({ length: 2_000 }, () => word(3));
  const real = realNames();
  const speciesRows = Array.from({ length: SIZES.species }, (_, i) => {
    const genus = pick(genera);
    const name = `${genus[0]!.toUpperCase()}${genus.slice(1)} ${word(3)}`;
    const made = { name_scientific: name, name_en: `${word(2)} ${word(2)}`, name_de: `${word(2)}${word(1)}` };
    return {
      id: randomUUID(),
      slug: `species-${i}`,
      family_id: familyRows[i % SIZES.families]!.id,
      ...(real[i] ?? made),
      description: sentence(30),
      description_de: sentence(30),
      plant_layer: pick(PLANT_LAYERS),
      drought_tolerance: pick(TOLERANCE_LEVELS),
      native_status: pick(NATIVE_STATUSES),
      nitrogen_fixer: rnd() < 0.3,
      dynamic_accumulator: rnd() < 0.2,
      attracts_pollinators: rnd() < 0.5,
      nectar_value: Math.floor(rnd() * 5),
      pollen_value: Math.floor(rnd() * 5),
      wild_bee_count: Math.floor(rnd() * 80),
      edibility_rating: Math.floor(rnd() * 6),
      ph_min: 5 + Math.round(rnd() * 15) / 10,
      ph_max: 6.5 + Math.round(rnd() * 15) / 10,
      hardiness_zone_usda: `${3 + Math.floor(rnd() * 4)}-${7 + Math.floor(rnd() * 3)}`,
      guild_role: ['food', pick(['mulch', 'ground_cover', 'pollinator_attractor', 'nitrogen_fixer'])],
      source_urls: [`https://example.org/species/${i}`],
    };
  });
  const cultivarRows = Array.from({ length: SIZES.cultivars }, (_, i) => ({
    id: randomUUID(),
    slug: `cultivar-${i}`,
    species_id: speciesRows[i % SIZES.species]!.id,
    name: `${word(2)} ${word(2)}`,
    is_organic: rnd() < 0.4,
    perennial: rnd() < 0.3,
    description: sentence(20),
    direct_sowing_months: [3, 4, 5],
    harvesting_months: [7, 8, 9],
    plant_spacing_cm: 10 + Math.floor(rnd() * 50),
    days_to_germination: 5 + Math.floor(rnd() * 20),
  }));
  const supplierRows = Array.from({ length: SIZES.suppliers }, (_, i) => ({
    id: randomUUID(),
    slug: `supplier-${i}`,
    name: `${word(3)} Saatgut ${i}`,
    is_organic: rnd() < 0.5,
    country: pick(['DE', 'AT', 'CH']),
  }));
  const linkRows = Array.from({ length: SIZES.links }, (_, i) => ({
    cultivar_id: cultivarRows[Math.floor(i / 2)]!.id,
    supplier_id: supplierRows[(i * 7 + (i % 2) * 3) % SIZES.suppliers]!.id,
    price_eur: Math.round(rnd() * 800) / 100,
    pack_size: 1 + Math.floor(rnd() * 20),
    pack_unit: 'g',
  }));
  const companionRows = Array.from({ length: SIZES.companions }, (_, i) => ({
    species_a_id: speciesRows[i]!.id,
    species_b_id: speciesRows[(i + 1 + (i % 97)) % SIZES.species]!.id,
    relationship: pick(['beneficial', 'antagonistic', 'neutral'] as const),
    mechanism: sentence(12),
  }));
  return { familyRows, speciesRows, cultivarRows, supplierRows, linkRows, companionRows };
}

async function insertBatches(database: Database, table: PgTable, rows: object[], batch = 500) {
  for (let i = 0; i < rows.length; i += batch) {
    await database.db.insert(table).values(rows.slice(i, i + batch) as never[]);
  }
}

export async function loadDataset(database: Database, data = makeDataset()): Promise<void> {
  await insertBatches(database, families, data.familyRows);
  await insertBatches(database, species, data.speciesRows, 250);
  await insertBatches(database, cultivars, data.cultivarRows);
  await insertBatches(database, suppliers, data.supplierRows);
  await insertBatches(database, cultivarSuppliers, data.linkRows, 1000);
  await insertBatches(database, companions, data.companionRows, 1000);
}
