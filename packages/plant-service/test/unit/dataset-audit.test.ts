/**
 * The starter dataset's audited facts, read straight from the JSON Lines files so the rules hold
 * whatever the import accepts: legal status against the lists it was checked against, hazards and
 * edible parts in their agreed shape, and nothing a planner would plant that may not be planted.
 * data/README.md states each rule and its sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { EDIBLE_PARTS, HAZARD_KINDS, PLANT_PARTS } from '../../src/schema/vocabularies.js';

type Rec = Record<string, unknown>;
const read = (name: string): Rec[] =>
  readFileSync(join(STARTER_DATA_DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Rec);
const species = read('species');
const bySlug = new Map(species.map((r) => [r.slug as string, r]));

/** A name without hybrid sign or author, lower case: `Reynoutria × bohemica` → `reynoutria bohemica`. */
const nameKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/\s[×x]\s|\s×|^×/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The plants on the EU list of invasive alien species of Union concern (Implementing Regulation
 * (EU) 2016/1141 and its updates of 2017, 2019, 2022 and 2025), with the synonyms the lists give.
 */
const UNION_LIST_PLANTS = [
  // 2016
  'Baccharis halimifolia',
  'Cabomba caroliniana',
  'Eichhornia crassipes',
  'Pontederia crassipes',
  'Heracleum persicum',
  'Heracleum sosnowskyi',
  'Hydrocotyle ranunculoides',
  'Lagarosiphon major',
  'Ludwigia grandiflora',
  'Ludwigia peploides',
  'Lysichiton americanus',
  'Myriophyllum aquaticum',
  'Parthenium hysterophorus',
  'Persicaria perfoliata',
  'Pueraria montana var. lobata',
  'Pueraria lobata',
  // 2017
  'Alternanthera philoxeroides',
  'Asclepias syriaca',
  'Elodea nuttallii',
  'Gunnera tinctoria',
  'Heracleum mantegazzianum',
  'Impatiens glandulifera',
  'Microstegium vimineum',
  'Myriophyllum heterophyllum',
  'Pennisetum setaceum',
  'Cenchrus setaceus',
  // 2019
  'Acacia saligna',
  'Ailanthus altissima',
  'Andropogon virginicus',
  'Cardiospermum grandiflorum',
  'Cortaderia jubata',
  'Ehrharta calycina',
  'Gymnocoronis spilanthoides',
  'Humulus scandens',
  'Humulus japonicus',
  'Lespedeza cuneata',
  'Lygodium japonicum',
  'Prosopis juliflora',
  'Salvinia molesta',
  'Triadica sebifera',
  // 2022
  'Celastrus orbiculatus',
  'Hakea sericea',
  'Koenigia polystachya',
  'Persicaria wallichii',
  'Pistia stratiotes',
  // 2025
  'Acacia mearnsii',
  'Broussonetia papyrifera',
  'Crassula helmsii',
  'Delairea odorata',
  'Nanozostera japonica',
  'Reynoutria japonica',
  'Fallopia japonica',
  'Reynoutria sachalinensis',
  'Fallopia sachalinensis',
  'Reynoutria × bohemica',
  'Fallopia × bohemica',
].map(nameKey);

/**
 * Plants of the Swiss Release Ordinance (SR 814.911) in force since 1 September 2024 that the
 * dataset holds or may hold: Annex 2.1 bans any handling but control, Annex 2.2 placing on the market.
 */
const CH_ANNEX_2_1 = [
  'Ailanthus altissima',
  'Asclepias syriaca',
  'Heracleum mantegazzianum',
  'Impatiens glandulifera',
  'Reynoutria japonica',
  'Reynoutria sachalinensis',
  'Rhus typhina',
  'Senecio inaequidens',
  'Solidago canadensis',
  'Solidago gigantea',
].map(nameKey);
const CH_ANNEX_2_2 = [
  'Buddleja davidii',
  'Lonicera henryi',
  'Lonicera japonica',
  'Parthenocissus quinquefolia',
  'Paulownia tomentosa',
  'Prunus laurocerasus',
  'Trachycarpus fortunei',
].map(nameKey);

const KINDS = ['union_list_invasive', 'banned', 'sale_banned', 'protected'];
const HTTP = /^https?:\/\/[^\s/]+\.[^\s]+$/;

const statuses = (r: Rec): Rec[] => (Array.isArray(r.legal_status) ? (r.legal_status as Rec[]) : []);
const carries = (r: Rec, jurisdiction: string, kind: string) =>
  statuses(r).some((s) => s.jurisdiction === jurisdiction && s.kind === kind);
/** May not be planted in the EU, or in Switzerland (the dataset lists Swiss suppliers). */
const mayNotBePlanted = (r: Rec) =>
  statuses(r).some(
    (s) => s.kind === 'union_list_invasive' || (s.jurisdiction === 'CH' && s.kind !== 'protected'),
  );
const named = (keys: string[]) => species.filter((r) => keys.includes(nameKey(r.name_scientific as string)));

describe('starter dataset audit: legal status', () => {
  it('matches names however the hybrid sign is written', () => {
    expect(nameKey('Reynoutria × bohemica')).toBe('reynoutria bohemica');
    expect(nameKey('Reynoutria x bohemica')).toBe('reynoutria bohemica');
    expect(nameKey('Mentha ×piperita')).toBe('mentha piperita');
  });

  it('marks every species of the EU Union list, and no other, as union_list_invasive', () => {
    const listed = named(UNION_LIST_PLANTS);
    expect(listed.map((r) => r.slug)).toContain('reynoutria-japonica');
    expect(listed.filter((r) => !carries(r, 'EU', 'union_list_invasive')).map((r) => r.slug)).toEqual([]);
    const marked = species.filter((r) => carries(r, 'EU', 'union_list_invasive'));
    expect(marked.filter((r) => !listed.includes(r)).map((r) => r.slug)).toEqual([]);
  });

  it('marks the Swiss bans of Annex 2.1 and 2.2', () => {
    expect(
      named(CH_ANNEX_2_1)
        .filter((r) => !carries(r, 'CH', 'banned'))
        .map((r) => r.slug),
    ).toEqual([]);
    expect(
      named(CH_ANNEX_2_2)
        .filter((r) => !carries(r, 'CH', 'sale_banned'))
        .map((r) => r.slug),
    ).toEqual([]);
    for (const slug of ['rhus-typhina', 'paulownia-tomentosa', 'parthenocissus-quinquefolia']) {
      expect(mayNotBePlanted(bySlug.get(slug) as Rec), slug).toBe(true);
    }
  });

  it('gives no guild role, which would recommend planting it, to a species that may not be planted', () => {
    const banned = species.filter(mayNotBePlanted);
    expect(banned.length).toBeGreaterThanOrEqual(9);
    expect(banned.filter((r) => (r.guild_role as unknown[]).length > 0).map((r) => r.slug)).toEqual([]);
  });

  it('gives each status the agreed shape, with an http(s) source', () => {
    const bad: string[] = [];
    for (const r of species) {
      const value = r.legal_status;
      if (value === undefined || value === null) continue;
      if (!Array.isArray(value)) {
        bad.push(`${r.slug}: not a list`);
        continue;
      }
      for (const s of value as Rec[]) {
        const keys = Object.keys(s).filter((k) => !['jurisdiction', 'kind', 'source', 'note'].includes(k));
        if (
          keys.length > 0 ||
          !/^(EU|[A-Z]{2})$/.test(String(s.jurisdiction)) ||
          !KINDS.includes(String(s.kind)) ||
          !HTTP.test(String(s.source)) ||
          (s.note !== undefined && (typeof s.note !== 'string' || s.note.length > 500)) ||
          (s.kind === 'union_list_invasive' && s.jurisdiction !== 'EU')
        ) {
          bad.push(`${r.slug}: ${JSON.stringify(s)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('checks most species and leaves those it could not verify unknown', () => {
    const checked = species.filter((r) => Array.isArray(r.legal_status));
    expect(checked.length / species.length).toBeGreaterThan(0.9);
    // A species invasive here but not on a list the dataset covers is unknown, not "on none".
    expect(bySlug.get('robinia-pseudoacacia')?.legal_status ?? null).toBeNull();
  });

  it('says in both languages where a species is invasive in Central Europe', () => {
    const invasive = [
      'robinia-pseudoacacia',
      'elaeagnus-angustifolia',
      'prunus-serotina',
      'solidago-canadensis',
      'acer-negundo',
      'quercus-rubra',
      'reynoutria-japonica',
    ];
    for (const slug of invasive) {
      const r = bySlug.get(slug) as Rec;
      expect(String(r.description), slug).toMatch(/invasive/i);
      expect(String(r.description_de), slug).toMatch(/invasiv/i);
    }
  });
});

// The dataset is held to the vocabularies the API declares.
const HAZARDS: readonly string[] = HAZARD_KINDS;
const PARTS: readonly string[] = PLANT_PARTS;
const EDIBLE: readonly string[] = EDIBLE_PARTS;
/** The hazard parts an edible part is made of: a shoot is young stem and leaf, a pod a fruit with its seeds. */
const MADE_OF: Record<string, string[]> = {
  shoot: ['stem', 'leaf'],
  pod: ['fruit', 'seed'],
  nut: ['seed', 'fruit'],
};
const hazards = (r: Rec): Rec[] => (Array.isArray(r.hazards) ? (r.hazards as Rec[]) : []);
const edibleParts = (r: Rec): Rec[] => (Array.isArray(r.edible_parts) ? (r.edible_parts as Rec[]) : []);
/** Whether a toxic hazard names this edible part (or the whole plant). */
const poisons = (hazard: Rec, part: string) => {
  const parts = hazard.parts as string[];
  return (
    parts.includes('whole') || parts.includes(part) || (MADE_OF[part] ?? []).some((p) => parts.includes(p))
  );
};
const text = (v: unknown, max: number) => typeof v === 'string' && v.trim() !== '' && v.length <= max;

describe('starter dataset audit: hazards and edible parts', () => {
  it('tells which toxic parts an edible part is made of', () => {
    const hazard = { kind: 'toxic', parts: ['leaf'] };
    expect(poisons(hazard, 'shoot')).toBe(true);
    expect(poisons(hazard, 'root')).toBe(false);
    expect(poisons({ kind: 'toxic', parts: ['whole'] }, 'fruit')).toBe(true);
  });

  it('gives each hazard the agreed shape, in English and German, with an http(s) source', () => {
    const bad: string[] = [];
    for (const r of species) {
      if (r.hazards === undefined || r.hazards === null) continue;
      if (!Array.isArray(r.hazards)) bad.push(`${r.slug}: not a list`);
      for (const h of hazards(r)) {
        const extra = Object.keys(h).filter(
          (k) => !['kind', 'parts', 'text_en', 'text_de', 'source'].includes(k),
        );
        const parts = h.parts;
        if (
          extra.length > 0 ||
          !HAZARDS.includes(String(h.kind)) ||
          !Array.isArray(parts) ||
          parts.some((p) => !PARTS.includes(p as string)) ||
          new Set(parts).size !== parts.length ||
          (parts.length === 0 && h.kind !== 'lookalike') ||
          !text(h.text_en, 500) ||
          !text(h.text_de, 500) ||
          !HTTP.test(String(h.source))
        ) {
          bad.push(`${r.slug}: ${JSON.stringify(h)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('gives each edible part the agreed shape, once per species, with a caution in both languages or none', () => {
    const bad: string[] = [];
    for (const r of species) {
      if (r.edible_parts === undefined || r.edible_parts === null) continue;
      const seen = new Set<string>();
      for (const e of edibleParts(r)) {
        const extra = Object.keys(e).filter((k) => !['part', 'caution_en', 'caution_de'].includes(k));
        const en = e.caution_en ?? null;
        const de = e.caution_de ?? null;
        if (
          extra.length > 0 ||
          !EDIBLE.includes(String(e.part)) ||
          seen.has(String(e.part)) ||
          (en === null) !== (de === null) ||
          (en !== null && (!text(en, 300) || !text(de, 300)))
        ) {
          bad.push(`${r.slug}: ${JSON.stringify(e)}`);
        }
        seen.add(String(e.part));
      }
    }
    expect(bad).toEqual([]);
  });

  it('cautions every edible part that a toxic hazard names', () => {
    const uncautioned = species.flatMap((r) =>
      edibleParts(r)
        .filter((e) => hazards(r).some((h) => h.kind === 'toxic' && poisons(h, e.part as string)))
        .filter((e) => typeof e.caution_en !== 'string')
        .map((e) => `${r.slug}: ${e.part}`),
    );
    expect(uncautioned).toEqual([]);
  });

  it('says which parts are edible, and how, for eaten plants with a toxic hazard', () => {
    const unsaid = species
      .filter((r) => (r.edibility_rating as number) >= 2 && hazards(r).some((h) => h.kind === 'toxic'))
      .filter((r) => edibleParts(r).length === 0)
      .map((r) => r.slug);
    expect(unsaid).toEqual([]);
  });

  it('warns of the hazards people meet when they eat or touch these plants', () => {
    const expected: Record<string, string> = {
      'heracleum-sphondylium': 'phototoxic',
      'angelica-archangelica': 'phototoxic',
      'pastinaca-sativa': 'phototoxic',
      'ruta-graveolens': 'phototoxic',
      'borago-officinalis': 'toxic',
      'symphytum-officinale': 'toxic',
      'phaseolus-coccineus': 'toxic',
      'phaseolus-vulgaris': 'toxic',
      'vicia-faba': 'toxic',
      'acorus-calamus': 'toxic',
      'prunus-serotina': 'toxic',
      'sambucus-nigra': 'toxic',
      'laburnum-anagyroides': 'toxic',
      'taxus-baccata': 'toxic',
      'digitalis-purpurea': 'toxic',
      'allium-ursinum': 'lookalike',
      'daucus-carota': 'lookalike',
    };
    const missing = Object.entries(expected)
      .filter(([slug, kind]) => !hazards(bySlug.get(slug) as Rec).some((h) => h.kind === kind))
      .map(([slug, kind]) => `${slug}: ${kind}`);
    expect(missing).toEqual([]);
  });

  it('recommends no protected species as food', () => {
    const protectedFood = species
      .filter((r) => carries(r, 'DE', 'protected'))
      .filter((r) => (r.guild_role as string[]).includes('food'))
      .map((r) => r.slug);
    expect(protectedFood).toEqual([]);
  });
});

/**
 * Families with symbiotic nitrogen fixers (legumes, and the actinorhizal plants with Frankia); outside
 * them, and in the legume genera that form no nodules, a plant is known not to fix nitrogen.
 */
const FIXING_FAMILIES = [
  'fabaceae',
  'elaeagnaceae',
  'myricaceae',
  'casuarinaceae',
  'coriariaceae',
  'datiscaceae',
];
const FIXING_GENERA: Record<string, string[]> = {
  betulaceae: ['Alnus'],
  rhamnaceae: ['Ceanothus', 'Colletia', 'Discaria'],
  rosaceae: ['Dryas', 'Purshia', 'Cercocarpus', 'Chamaebatia'],
};
const NON_NODULATING_LEGUMES = ['Cercis', 'Gleditsia', 'Gymnocladus', 'Ceratonia'];
/** Conifers, ginkgo, horsetails and ferns have no flowers. */
const FLOWERLESS = ['pinaceae', 'cupressaceae', 'taxaceae', 'ginkgoaceae', 'equisetaceae', 'onocleaceae'];
const genusOf = (r: Rec) => (r.name_scientific as string).split(' ')[0] as string;
const BOOLEANS = [
  'nitrogen_fixer',
  'dynamic_accumulator',
  'attracts_pollinators',
  'attracts_beneficial_insects',
  'mulch_plant',
  'allelopathic',
  'heavy_metal_tolerance',
  'waterlogging_tolerance',
];

describe('starter dataset audit: honest unknowns', () => {
  it('says "no" only where a documented rule says the trait is absent', () => {
    const unfounded: string[] = [];
    for (const r of species) {
      for (const flag of BOOLEANS) {
        if (r[flag] !== false) continue;
        const family = r.family as string;
        const genus = genusOf(r);
        const founded =
          (flag === 'nitrogen_fixer' &&
            ((!FIXING_FAMILIES.includes(family) && !(FIXING_GENERA[family] ?? []).includes(genus)) ||
              NON_NODULATING_LEGUMES.includes(genus))) ||
          // Wind- and self-pollinated plants and flowerless ones have no animal pollinators to attract.
          (flag === 'attracts_pollinators' &&
            (FLOWERLESS.includes(family) || ['wind', 'self'].includes(String(r.pollination_type))));
        if (!founded) unfounded.push(`${r.slug}: ${flag}`);
      }
    }
    expect(unfounded).toEqual([]);
  });

  it('records the chop-and-drop shrubs whose prunings the relations use as mulch', () => {
    for (const slug of ['caragana-arborescens', 'elaeagnus-angustifolia']) {
      expect(bySlug.get(slug)?.mulch_plant, slug).toBe(true);
    }
  });
});

/** The upper zone of a range (`4-9` → 9, `5b-8a` → 8, `7` → 7). */
const upperZone = (range: string) => Number.parseInt(range.split('-').at(-1) as string, 10);
/** Ranges run from the cold limit up to this zone at least: the dataset cites no heat limit. */
const ZONE_CAP = 9;
/** Trees and shrubs (hawthorn and hazel grow as either). */
const WOODY_LAYERS = ['canopy', 'sub_canopy', 'shrub'];

describe('starter dataset audit: hardiness', () => {
  it('reads the upper zone of a range', () => {
    expect(upperZone('4-9')).toBe(9);
    expect(upperZone('5b-8a')).toBe(8);
    expect(upperZone('10')).toBe(10);
  });

  it('ends no native Central European tree or shrub below zone 8', () => {
    const trees = species.filter(
      (r) => r.native_status === 'native' && WOODY_LAYERS.includes(r.plant_layer as string),
    );
    expect(trees.length).toBeGreaterThanOrEqual(90);
    const short = trees
      .filter((r) => typeof r.hardiness_zone_usda !== 'string' || upperZone(r.hardiness_zone_usda) < 8)
      .map((r) => `${r.slug}: ${r.hardiness_zone_usda}`);
    expect(short).toEqual([]);
  });

  it('gives a range no upper bound below the documented cap', () => {
    const capped = species
      .filter((r) => typeof r.hardiness_zone_usda === 'string')
      .filter((r) => upperZone(r.hardiness_zone_usda as string) < ZONE_CAP)
      .map((r) => `${r.slug}: ${r.hardiness_zone_usda}`);
    expect(capped).toEqual([]);
    expect(bySlug.get('tilia-tomentosa')?.hardiness_zone_usda).toBe('4-9');
  });

  it('gives frost-tender perennials grown as annuals no zone', () => {
    for (const slug of [
      'phaseolus-coccineus',
      'solanum-tuberosum',
      'solanum-lycopersicum',
      'oxalis-tuberosa',
    ]) {
      expect(bySlug.get(slug)?.hardiness_zone_usda ?? null, slug).toBeNull();
    }
  });
});

const companions = read('companions');
const pairName = (r: Rec) => `${r.species_a} / ${r.species_b}`;
/** Journals, DOIs and research institutions whose pages can back a `scientific` relation. */
const SCIENTIFIC_HOSTS = new Set([
  'doi.org',
  'eng-encyclopedie-pucerons.hub.inrae.fr',
  'www7.inra.fr',
  'bladmineerders.nl',
  'cordis.europa.eu',
  'tidcf.nrcan.gc.ca',
  'publish.csiro.au',
  'www.silvafennica.fi',
  'agromixproject.eu',
  'ouci.dntb.gov.ua',
  'peeref.com',
]);
const ENCYCLOPEDIA_OR_BLOG = /wikipedia\.org|blogspot\.|wordpress\.|\/blog\b|blog\./;

describe('starter dataset audit: relations', () => {
  it('keeps at least 450 relations', () => {
    expect(companions.length).toBeGreaterThanOrEqual(450);
  });

  it('cites an http(s) source for every relation', () => {
    expect(companions.filter((r) => !HTTP.test(String(r.source_url))).map(pairName)).toEqual([]);
  });

  it('calls a relation scientific only with a journal or research institution as its source', () => {
    const scientific = companions.filter((r) => r.evidence === 'scientific');
    expect(scientific.filter((r) => ENCYCLOPEDIA_OR_BLOG.test(String(r.source_url))).map(pairName)).toEqual(
      [],
    );
    expect(
      scientific.filter((r) => !SCIENTIFIC_HOSTS.has(new URL(String(r.source_url)).hostname)).map(pairName),
    ).toEqual([]);
  });

  it('labels lore as lore: a traditional relation says so in its mechanism', () => {
    expect(
      companions
        .filter((r) => r.evidence === 'traditional')
        .filter((r) => !/tradition|lore|observation|^Sources conflict/i.test(String(r.mechanism)))
        .map(pairName),
    ).toEqual([]);
    expect(
      companions
        .filter((r) => String(r.source_url).endsWith('/wiki/List_of_companion_plants'))
        .filter((r) => r.evidence !== 'traditional')
        .map(pairName),
    ).toEqual([]);
  });

  it('relates no plants merely for growing in the same hedge', () => {
    expect(
      companions
        .filter((r) => r.relationship === 'beneficial' && /\bhedges?\b/i.test(String(r.mechanism)))
        .map(pairName),
    ).toEqual(['hippophae-rhamnoides / malus-domestica']);
  });

  it('does not claim that butternut makes as much juglone as black walnut', () => {
    const butternut = companions.filter(
      (r) => r.species_a === 'juglans-cinerea' || r.species_b === 'juglans-cinerea',
    );
    expect(butternut.length).toBeGreaterThanOrEqual(10);
    expect(
      butternut.filter((r) => /as much juglone|in quantity/.test(String(r.mechanism))).map(pairName),
    ).toEqual([]);
  });

  it('says where the Three Sisters hold, and drops marigold against potato nematodes', () => {
    const sisters = companions.filter((r) => String(r.source_url).includes('Three_Sisters'));
    expect(sisters.length).toBeGreaterThanOrEqual(5);
    for (const r of sisters) expect(String(r.mechanism), pairName(r)).toMatch(/of the Americas/);
    const potatoMarigold = companions.filter(
      (r) => [r.species_a, r.species_b].sort().join(' ') === 'solanum-tuberosum tagetes-patula',
    );
    expect(potatoMarigold).toEqual([]);
  });
});

const oneOf = (values: string[]) => (v: unknown) =>
  v === undefined || v === null || values.includes(v as string);

describe('starter dataset audit: planner fields', () => {
  it('uses the agreed vocabularies and forms', () => {
    const checks: [string, (v: unknown) => boolean][] = [
      ['life_cycle', oneOf(['annual', 'biennial', 'perennial'])],
      ['leaf_retention', oneOf(['deciduous', 'semi_evergreen', 'evergreen'])],
      ['flower_sex', oneOf(['hermaphrodite', 'monoecious', 'dioecious', 'polygamous'])],
      ['nutrient_demand', oneOf(['low', 'medium', 'high'])],
      ['woody', (v) => v == null || typeof v === 'boolean'],
      ['self_fertile', (v) => v == null || typeof v === 'boolean'],
      ['height_m', (v) => v == null || (typeof v === 'number' && v > 0)],
      ['width_m', (v) => v == null || (typeof v === 'number' && v > 0)],
      [
        'light',
        (v) =>
          v == null ||
          (Array.isArray(v) &&
            v.length > 0 &&
            new Set(v).size === v.length &&
            v.every((x) => ['full_sun', 'partial_shade', 'shade'].includes(x))),
      ],
      [
        'flowering_months',
        (v) =>
          v == null ||
          (Array.isArray(v) &&
            v.every(
              (m, i) => Number.isInteger(m) && m >= 1 && m <= 12 && (i === 0 || m > (v[i - 1] as number)),
            )),
      ],
    ];
    const bad = species.flatMap((r) =>
      checks.filter(([field, ok]) => !ok(r[field])).map(([field]) => `${r.slug}: ${field}`),
    );
    expect(bad).toEqual([]);
  });

  it('keeps the facts consistent: leaves only on woody plants, no selfing where the sexes are apart', () => {
    expect(species.filter((r) => r.leaf_retention != null && r.woody !== true).map((r) => r.slug)).toEqual(
      [],
    );
    expect(
      species.filter((r) => r.woody === true && r.life_cycle !== 'perennial').map((r) => r.slug),
    ).toEqual([]);
    expect(
      species.filter((r) => r.flower_sex === 'dioecious' && r.self_fertile !== false).map((r) => r.slug),
    ).toEqual([]);
    // Trees are woody; a dioecious holly and a monoecious hazel, as every flora has them.
    expect(bySlug.get('fagus-sylvatica')?.woody).toBe(true);
    expect(bySlug.get('ilex-aquifolium')?.flower_sex).toBe('dioecious');
    expect(bySlug.get('corylus-avellana')?.flower_sex).toBe('monoecious');
    expect(bySlug.get('larix-decidua')?.leaf_retention).toBe('deciduous');
  });

  it('writes every hybrid with the multiplication sign', () => {
    expect(species.filter((r) => / x /.test(r.name_scientific as string)).map((r) => r.slug)).toEqual([]);
    expect(species.filter((r) => (r.name_scientific as string).includes('×')).length).toBeGreaterThanOrEqual(
      9,
    );
  });

  it('links GBIF species pages only with the backbone key they show', () => {
    for (const r of species) {
      const pages = (r.source_urls as string[]).filter((u) => /gbif\.org\/species\/\d+/.test(u));
      for (const page of pages)
        expect(page, String(r.slug)).toBe(`https://www.gbif.org/species/${r.biodiv_id}`);
    }
  });
});
