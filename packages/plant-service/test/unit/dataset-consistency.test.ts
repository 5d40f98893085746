/**
 * The starter dataset's facts checked against each other, beyond schema validation: relations
 * between species that exist, flags that agree with each other and with botany, hardiness zones in
 * their documented form, every relation with its evidence and source, and the coverage a planner
 * needs. The counts are what the dataset reaches; raise them as data is added.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkInput } from '../../src/dataset/import.js';
import { KIND_NAMES, type KindName } from '../../src/dataset/kinds.js';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { EVIDENCE_LEVELS } from '../../src/schema/vocabularies.js';

type Rec = Record<string, unknown>;
const records = Object.fromEntries(KIND_NAMES.map((k) => [k, [] as Rec[]])) as Record<KindName, Rec[]>;

beforeAll(async () => {
  const checked = await checkInput([STARTER_DATA_DIR]);
  for (const { kind, record } of checked.sources) records[kind.name].push(record);
});

const slugs = (list: Rec[]) => list.map((r) => r.slug as string);
const pairOf = (r: Rec) => `${r.species_a} / ${r.species_b}`;
const genus = (r: Rec) => (r.name_scientific as string).split(' ')[0] as string;
const WOODY = new Set(['canopy', 'sub_canopy', 'shrub']);

/** A zone `N`, `Na` or `Nb` (1–13), or a range of two such zones, low to high. */
const ZONE = /^(1[0-3]|[1-9])([ab])?$/;
function zoneValue(zone: string): number | undefined {
  const m = ZONE.exec(zone);
  if (!m) return undefined;
  return Number(m[1]) + (m[2] === 'b' ? 0.5 : 0);
}
function validHardiness(text: string): boolean {
  const parts = text.split('-');
  if (parts.length > 2) return false;
  const values = parts.map(zoneValue);
  if (values.some((v) => v === undefined)) return false;
  return values.length === 1 || (values[0] as number) < (values[1] as number);
}

/**
 * Where symbiotic nitrogen fixation occurs: the legumes (most of them) and the actinorhizal plants
 * with Frankia, whose families hold fixing genera only in part.
 */
const FIXING_FAMILIES = new Set([
  'fabaceae',
  'elaeagnaceae',
  'myricaceae',
  'casuarinaceae',
  'coriariaceae',
  'datiscaceae',
]);
const FIXING_GENERA: Record<string, readonly string[]> = {
  betulaceae: ['Alnus'],
  rhamnaceae: ['Ceanothus', 'Colletia', 'Discaria'],
  rosaceae: ['Dryas', 'Purshia', 'Cercocarpus', 'Chamaebatia'],
};
/** Conifers, ginkgo, horsetails and ferns: no flowers to rate for nectar and pollen. */
const FLOWERLESS_FAMILIES = new Set([
  'pinaceae',
  'cupressaceae',
  'taxaceae',
  'ginkgoaceae',
  'equisetaceae',
  'onocleaceae',
]);

/**
 * Survey articles on a way of growing (forest gardens, permaculture, agroforestry) name many plants
 * but not why two of them belong together, so they cannot be the one source of a relation.
 */
const OVERVIEW_SOURCES = new Set([
  'https://en.wikipedia.org/wiki/Forest_gardening',
  'https://en.wikipedia.org/wiki/Forest_garden',
  'https://en.wikipedia.org/wiki/Permaculture',
  'https://en.wikipedia.org/wiki/Agroforestry',
  'https://en.wikipedia.org/wiki/Polyculture',
  'https://en.wikipedia.org/wiki/Orchard',
  'https://en.wikipedia.org/wiki/Organic_farming',
  'https://de.wikipedia.org/wiki/Waldgarten',
  'https://de.wikipedia.org/wiki/Permakultur',
  'https://de.wikipedia.org/wiki/Agroforstwirtschaft',
]);
/** A page's address without fragment, query or trailing slash. */
const pageOf = (url: string) => url.replace(/[#?].*$/, '').replace(/\/$/, '');

/** Legume genera that form no root nodules. */
/**
 * A cultivar-supplier link's product page is on the supplier's own site: the same host once `www.`
 * and the national ending are dropped (one shop may serve .de, .at and .ch). The pages listed here
 * are elsewhere and say which variety the supplier sells.
 */
const OFFER_PAGES_ELSEWHERE: Record<string, string> = {
  // ProSpecieRara's variety of the month, naming Sativa as the seed's trader
  'cucurbita-pepo-costata-romanesco sativa-rheinau-ag':
    'https://prospecierara.ch/erleben/aktuelles/news-detail/news/sorte-des-monats-costata-romanesco.html',
};
const siteOf = (url: string) => new URL(url).hostname.replace(/^www\./, '').replace(/\.[a-z]+$/, '');

const NON_FIXING_LEGUMES = new Set(['Cercis', 'Gleditsia', 'Gymnocladus', 'Ceratonia']);

describe('starter dataset consistency', () => {
  it('tests its hardiness rule', () => {
    for (const ok of ['7', '7a', '7b', '13', '4-9', '5b-8a', '1-13', '6a-6b'])
      expect(validHardiness(ok), ok).toBe(true);
    for (const bad of ['0', '14', '7c', '9-4', '7b-7a', '4-9-10', 'z7', '4 - 9', '', '7-7']) {
      expect(validHardiness(bad), bad).toBe(false);
    }
  });

  it('relates only species that exist, and each pair once in either order', () => {
    const known = new Set(slugs(records.species));
    expect(
      records.companion
        .filter((r) => !known.has(r.species_a as string) || !known.has(r.species_b as string))
        .map(pairOf),
    ).toEqual([]);
    const seen = new Set<string>();
    const twice: string[] = [];
    for (const r of records.companion) {
      const key = [r.species_a, r.species_b].sort().join(' ');
      if (seen.has(key)) twice.push(pairOf(r));
      seen.add(key);
    }
    expect(twice).toEqual([]);
    expect(records.companion.filter((r) => r.species_a === r.species_b).map(pairOf)).toEqual([]);
  });

  it('gives every relation an evidence level, an English mechanism and a source', () => {
    expect(
      records.companion
        .filter(
          (r) =>
            !(EVIDENCE_LEVELS as readonly unknown[]).includes(r.evidence) ||
            typeof r.mechanism !== 'string' ||
            !/^https?:\/\/\S+$/.test(String(r.source_url)),
        )
        .map(pairOf),
    ).toEqual([]);
    // The source discusses the pair or its mechanism, not only the way of growing.
    expect(
      records.companion.filter((r) => OVERVIEW_SOURCES.has(pageOf(String(r.source_url)))).map(pairOf),
    ).toEqual([]);
    // Lore is labelled as such: a mechanism that says "traditionally" is not a study.
    expect(
      records.companion
        .filter((r) => /\btraditionally\b/.test(r.mechanism as string) && r.evidence === 'scientific')
        .map(pairOf),
    ).toEqual([]);
    // Disagreeing sources give a neutral relation.
    expect(
      records.companion
        .filter((r) => /^Sources conflict/.test(r.mechanism as string) && r.relationship !== 'neutral')
        .map(pairOf),
    ).toEqual([]);
    // A study of the pair or its mechanism is rarer than lore; each level is still well represented.
    for (const level of EVIDENCE_LEVELS) {
      expect(records.companion.filter((r) => r.evidence === level).length, level).toBeGreaterThanOrEqual(50);
    }
  });

  it('has no insect-pollinated species that attracts no pollinators', () => {
    expect(
      slugs(
        records.species.filter(
          (r) => String(r.pollination_type ?? '').includes('insect') && r.attracts_pollinators === false,
        ),
      ),
    ).toEqual([]);
  });

  it('has nitrogen fixers only where fixation occurs', () => {
    const fixes = (r: Rec) =>
      (FIXING_FAMILIES.has(r.family as string) && !NON_FIXING_LEGUMES.has(genus(r))) ||
      (FIXING_GENERA[r.family as string] ?? []).includes(genus(r));
    expect(slugs(records.species.filter((r) => r.nitrogen_fixer === true && !fixes(r)))).toEqual([]);
    expect(
      slugs(records.species.filter((r) => r.nitrogen_fixer === true && NON_FIXING_LEGUMES.has(genus(r)))),
    ).toEqual([]);
  });

  it('writes every hardiness zone in the documented form', () => {
    expect(
      records.species
        .filter((r) => r.hardiness_zone_usda != null && !validHardiness(r.hardiness_zone_usda as string))
        .map((r) => `${r.slug}: ${r.hardiness_zone_usda}`),
    ).toEqual([]);
    // Trees and shrubs are perennial: each has its zone.
    expect(
      slugs(
        records.species.filter((r) => WOODY.has(r.plant_layer as string) && r.hardiness_zone_usda == null),
      ),
    ).toEqual([]);
  });

  it('keeps description_en only where it differs from description', () => {
    expect(
      slugs(records.species.filter((r) => r.description_en != null && r.description_en === r.description)),
    ).toEqual([]);
  });

  it('fills the fields a planner filters on', () => {
    const share = (test: (r: Rec) => boolean, list = records.species) =>
      list.filter(test).length / list.length;
    const filled = (field: string) => (r: Rec) => r[field] !== undefined && r[field] !== null;
    for (const field of ['plant_layer', 'drought_tolerance', 'native_status', 'soil_moisture']) {
      expect(share(filled(field)), field).toBe(1);
    }
    expect(share(filled('succession_stage'))).toBeGreaterThanOrEqual(0.99);
    expect(share(filled('soil_texture_preference'))).toBeGreaterThanOrEqual(0.99);
    expect(share(filled('pollination_type'))).toBeGreaterThanOrEqual(0.99);
    // Flowering plants say how much nectar and pollen they offer.
    const flowering = records.species.filter((r) => !FLOWERLESS_FAMILIES.has(r.family as string));
    expect(share(filled('nectar_value'), flowering)).toBeGreaterThanOrEqual(0.9);
    expect(share(filled('pollen_value'), flowering)).toBeGreaterThanOrEqual(0.9);
    // Wind-pollinated flowers make no nectar.
    expect(
      slugs(records.species.filter((r) => r.pollination_type === 'wind' && (r.nectar_value ?? 0) !== 0)),
    ).toEqual([]);
    // Whether a plant fixes nitrogen follows from its family, so it is known for nearly every species.
    expect(share(filled('nitrogen_fixer'))).toBeGreaterThanOrEqual(0.99);
  });

  it('gives every vegetable, fruit and herb the further names people search for', () => {
    const useful = records.species.filter(
      (r) =>
        ((r.edibility_rating as number) ?? 0) >= 2 ||
        (r.guild_role as string[]).some((role) => role === 'food' || role === 'medicinal'),
    );
    expect(useful.length).toBeGreaterThanOrEqual(300);
    expect(slugs(useful.filter((r) => !Array.isArray(r.other_names) || r.other_names.length === 0))).toEqual(
      [],
    );
    const names = (slug: string) => records.species.find((r) => r.slug === slug)?.other_names as string[];
    // Accepted-name changes are searchable under either name.
    expect(names('rosmarinus-officinalis')).toContain('Salvia rosmarinus');
    expect(names('allium-porrum')).toContain('Allium ampeloprasum var. porrum');
    expect(names('daucus-carota')).toEqual(
      expect.arrayContaining(['Karotte', 'Mohrrübe', 'Gelbe Rübe', 'Rüebli']),
    );
    expect(names('malus-domestica')).toEqual(expect.arrayContaining(['Apfel', 'Apple tree']));
    // A further name repeats none of the record's own names.
    expect(
      slugs(
        records.species.filter((r) =>
          ((r.other_names as string[] | undefined) ?? []).some((n) =>
            [r.name_scientific, r.name_en, r.name_de].includes(n),
          ),
        ),
      ),
    ).toEqual([]);
  });

  it('reaches the counts and the woody coverage of the companion relations', () => {
    expect(records.species.length).toBeGreaterThanOrEqual(553);
    expect(records.companion.length).toBeGreaterThanOrEqual(450);
    const related = new Set(records.companion.flatMap((r) => [r.species_a, r.species_b]));
    const woody = records.species.filter((r) => WOODY.has(r.plant_layer as string));
    const covered = woody.filter((r) => related.has(r.slug)).length / woody.length;
    // Plants merely sold together for a hedge are not related, so hedge shrubs count only with a real relation.
    expect(covered).toBeGreaterThanOrEqual(0.55);
  });

  it('holds the species a permaculture planner expects, and no family without species', () => {
    const names = new Set(records.species.map((r) => r.name_scientific));
    const expected = [
      'Vaccinium vitis-idaea',
      'Vaccinium macrocarpon',
      'Castanea mollissima',
      'Hemerocallis fulva',
      'Hosta sieboldiana',
      'Mahonia aquifolium',
      'Galium odoratum',
      'Hablitzia tamnoides',
      'Phyllostachys aureosulcata',
      'Crataegus pinnatifida',
      'Hovenia dulcis',
      'Tetradium daniellii',
      'Elaeagnus × ebbingei',
      'Galega officinalis',
      'Rubus occidentalis',
      'Lindera benzoin',
      'Juglans × intermedia',
      'Populus × canadensis',
      // alley-crop cereals, pasture grasses and legumes, green manures, timber and hedge trees
      'Triticum aestivum',
      'Hordeum vulgare',
      'Secale cereale',
      'Dactylis glomerata',
      'Lolium perenne',
      'Festuca rubra',
      'Arrhenatherum elatius',
      'Trifolium pratense',
      'Lotus pedunculatus',
      'Melilotus albus',
      'Ornithopus sativus',
      'Larix kaempferi',
      'Pinus nigra',
      'Liriodendron tulipifera',
      'Buxus sempervirens',
      'Rosa arvensis',
    ];
    expect(expected.filter((name) => !names.has(name))).toEqual([]);
    const used = new Set(records.species.map((r) => r.family));
    expect(slugs(records.family.filter((r) => !used.has(r.slug)))).toEqual([]);
  });

  it('links a GBIF species page wherever it states the GBIF key', () => {
    const keyed = records.species.filter((r) => r.biodiv_id != null);
    expect(keyed.length).toBeGreaterThanOrEqual(79);
    expect(
      slugs(
        keyed.filter(
          (r) =>
            !/^[1-9][0-9]*$/.test(r.biodiv_id as string) ||
            !(r.source_urls as string[]).includes(`https://www.gbif.org/species/${r.biodiv_id}`),
        ),
      ),
    ).toEqual([]);
    // A species page replaces the search page, not sits beside it.
    expect(
      slugs(
        keyed.filter((r) => (r.source_urls as string[]).some((u) => u.includes('gbif.org/species/search'))),
      ),
    ).toEqual([]);
  });

  it("links cultivars to suppliers through product pages on the supplier's site", () => {
    const linked = new Set(records.cultivar_supplier.map((r) => r.cultivar));
    expect(records.cultivar_supplier.length).toBeGreaterThanOrEqual(175);
    expect(linked.size).toBeGreaterThanOrEqual(124);
    const site = new Map(records.supplier.map((r) => [r.slug as string, siteOf(r.url as string)]));
    const link = (r: Rec) => `${r.cultivar} ${r.supplier}`;
    const withPage = records.cultivar_supplier.filter((r) => r.product_url != null);
    expect(withPage.length).toBeGreaterThanOrEqual(146);
    expect(
      withPage
        .filter((r) => {
          const url = r.product_url as string;
          if (!/^https?:\/\/\S+$/.test(url)) return true;
          const elsewhere = OFFER_PAGES_ELSEWHERE[link(r)];
          return elsewhere ? url !== elsewhere : siteOf(url) !== site.get(r.supplier as string);
        })
        .map(link),
    ).toEqual([]);
  });
});
