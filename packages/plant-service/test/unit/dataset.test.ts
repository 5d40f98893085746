/**
 * The committed starter dataset: valid against the API's schemas, every reference
 * resolved, no duplicates, and the coverage it promises (counts, layers, calendars, suppliers, companions).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkInput } from '../../src/dataset/import.js';
import { KIND_NAMES, type KindName } from '../../src/dataset/kinds.js';
import { formatProblem } from '../../src/dataset/problems.js';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { slugify } from '../../src/lib/slug.js';

type Rec = Record<string, unknown>;
const records = Object.fromEntries(KIND_NAMES.map((k) => [k, [] as Rec[]])) as Record<KindName, Rec[]>;
let problems: string[] = [];

beforeAll(async () => {
  const checked = await checkInput([STARTER_DATA_DIR]);
  problems = checked.problems.map(formatProblem);
  for (const { kind, record } of checked.sources) records[kind.name].push(record);
});

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
/** The records of a kind for which `bad` holds, by identity, for a readable failure. */
const offenders = (kind: KindName, bad: (r: Rec) => boolean) =>
  records[kind].filter(bad).map((r) => r.slug ?? `${r.cultivar ?? r.species_a} ${r.supplier ?? r.species_b}`);

describe('starter dataset (data/)', () => {
  it('has no invalid record, duplicate slug or pair, and no unresolved reference', () => {
    expect(problems).toEqual([]);
  });

  it('has the minimum counts the starter dataset promises', () => {
    expect(records.family.length).toBeGreaterThanOrEqual(60);
    expect(records.species.length).toBeGreaterThanOrEqual(300);
    expect(records.cultivar.length).toBeGreaterThanOrEqual(150);
    expect(records.supplier.length).toBeGreaterThanOrEqual(10);
    expect(records.companion.length).toBeGreaterThanOrEqual(200);
  });

  it('follows the slug rules of data/README.md', () => {
    const expected: Partial<Record<KindName, (r: Rec) => string>> = {
      family: (r) => slugify(r.name_scientific as string),
      species: (r) => slugify(r.name_scientific as string),
      supplier: (r) => slugify(r.name as string),
      cultivar: (r) => `${r.species}-${slugify(r.name as string)}`,
    };
    for (const [kind, slug] of Object.entries(expected)) {
      expect(
        offenders(kind as KindName, (r) => r.slug !== slug?.(r)),
        kind,
      ).toEqual([]);
    }
  });

  it('names every family and species in Latin, English and German and describes it in English and German', () => {
    const named = (r: Rec) => blank(r.name_scientific) || blank(r.name_en) || blank(r.name_de);
    expect(offenders('family', (r) => named(r) || blank(r.description))).toEqual([]);
    expect(
      offenders(
        'species',
        (r) => named(r) || (blank(r.description_en) && blank(r.description)) || blank(r.description_de),
      ),
    ).toEqual([]);
  });

  it('covers every plant layer, with the ecological fields guild planning needs', () => {
    const layers = new Map<unknown, number>();
    for (const s of records.species) layers.set(s.plant_layer, (layers.get(s.plant_layer) ?? 0) + 1);
    for (const layer of ['canopy', 'sub_canopy', 'shrub', 'herb', 'ground_cover', 'climber', 'root']) {
      expect(layers.get(layer) ?? 0, layer).toBeGreaterThanOrEqual(10);
    }
    const fields = [
      'plant_layer',
      'native_status',
      'drought_tolerance',
      'edibility_rating',
      'ph_min',
      'ph_max',
    ];
    expect(offenders('species', (r) => fields.some((f) => r[f] === undefined || r[f] === null))).toEqual([]);
    expect(
      offenders('species', (r) => r.nitrogen_fixer != null && typeof r.nitrogen_fixer !== 'boolean'),
    ).toEqual([]);
    // A species that may not be planted (EU Union list, Swiss ban) keeps no guild role: every role
    // is a reason to plant it. Only such species, and protected ones whose one role was collecting
    // them for food, have none.
    const banned = (r: Rec) =>
      Array.isArray(r.legal_status) &&
      (r.legal_status as Rec[]).some(
        (s) => s.kind === 'union_list_invasive' || (s.jurisdiction === 'CH' && s.kind !== 'protected'),
      );
    const legal = (r: Rec) => Array.isArray(r.legal_status) && r.legal_status.length > 0;
    expect(offenders('species', (r) => !Array.isArray(r.guild_role))).toEqual([]);
    expect(offenders('species', (r) => banned(r) && (r.guild_role as unknown[]).length > 0)).toEqual([]);
    expect(offenders('species', (r) => !legal(r) && (r.guild_role as unknown[]).length === 0)).toEqual([]);
    expect(
      offenders(
        'species',
        (r) =>
          r.dynamic_accumulator === true &&
          (!Array.isArray(r.dynamic_accumulator_nutrients) || r.dynamic_accumulator_nutrients.length === 0),
      ),
    ).toEqual([]);
    expect(offenders('species', (r) => (r.ph_min as number) > (r.ph_max as number))).toEqual([]);
    expect(records.species.filter((r) => r.nitrogen_fixer === true).length).toBeGreaterThanOrEqual(10);
    expect(records.species.filter((r) => r.dynamic_accumulator === true).length).toBeGreaterThanOrEqual(10);
    expect(records.species.filter((r) => typeof r.nectar_value === 'number').length).toBeGreaterThanOrEqual(
      100,
    );
    expect(
      records.species.filter((r) => typeof r.hardiness_zone_usda === 'string').length,
    ).toBeGreaterThanOrEqual(200);
  });

  it('cites public references for every species; external ids, where given, have their form', () => {
    expect(
      offenders(
        'species',
        (r) =>
          !Array.isArray(r.source_urls) ||
          r.source_urls.length === 0 ||
          r.source_urls.some((u) => !/^https:\/\/\S+$/.test(u as string)),
      ),
    ).toEqual([]);
    expect(offenders('species', (r) => r.kb_qid != null && !/^Q[1-9]\d*$/.test(r.kb_qid as string))).toEqual(
      [],
    );
    expect(
      offenders('species', (r) => r.biodiv_id != null && !/^[1-9]\d*$/.test(r.biodiv_id as string)),
    ).toEqual([]);
  });

  it('gives cultivars their calendars, spacing and germination data', () => {
    expect(
      offenders(
        'cultivar',
        (r) => !Array.isArray(r.harvesting_months) || blank(r.description) || blank(r.description_de),
      ),
    ).toEqual([]);
    const fromSeed = records.cultivar.filter(
      (r) =>
        r.perennial === false &&
        !(r.propagation_methods as string[] | undefined)?.some((m) =>
          ['tubers', 'bulbs', 'sets'].includes(m),
        ),
    );
    expect(fromSeed.length).toBeGreaterThanOrEqual(150);
    const sown = (r: Rec) => Array.isArray(r.indoor_sowing_months) || Array.isArray(r.direct_sowing_months);
    const incomplete = fromSeed.filter(
      (r) =>
        !sown(r) ||
        typeof r.plant_spacing_cm !== 'number' ||
        typeof r.row_spacing_cm !== 'number' ||
        typeof r.days_to_germination !== 'number' ||
        typeof r.germination_temp_c !== 'number',
    );
    expect(incomplete.map((r) => r.slug)).toEqual([]);
    // Raised indoors means planted out: those have transplanting months.
    expect(
      offenders(
        'cultivar',
        (r) => Array.isArray(r.indoor_sowing_months) && !Array.isArray(r.transplanting_months),
      ),
    ).toEqual([]);
  });

  it('lists seed suppliers from Germany, Austria and Switzerland with explicit organic and biodynamic flags', () => {
    expect(new Set(records.supplier.map((s) => s.country))).toEqual(new Set(['DE', 'AT', 'CH']));
    expect(
      offenders(
        'supplier',
        (r) =>
          typeof r.is_organic !== 'boolean' ||
          typeof r.is_biodynamic !== 'boolean' ||
          !/^https:\/\//.test(String(r.url)),
      ),
    ).toEqual([]);
    // Biodynamic certification implies organic.
    expect(offenders('supplier', (r) => r.is_biodynamic === true && r.is_organic !== true)).toEqual([]);
  });

  it('gives every companion relation a one-sentence mechanism and a source, with all three kinds present', () => {
    expect(new Set(records.companion.map((c) => c.relationship))).toEqual(
      new Set(['beneficial', 'antagonistic', 'neutral']),
    );
    expect(
      offenders(
        'companion',
        (r) =>
          blank(r.mechanism) ||
          !/\.$/.test(r.mechanism as string) ||
          /[.!?] [A-Z]/.test(r.mechanism as string),
      ),
    ).toEqual([]);
    expect(offenders('companion', (r) => !/^https?:\/\/\S+$/.test(String(r.source_url)))).toEqual([]);
  });
});
