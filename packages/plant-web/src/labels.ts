/**
 * Plain-word labels (German, English) for the fields the pages show, in the groups the species
 * and cultivar pages use, and for the values of the enumerated fields.
 */
import VOCABULARY from 'virtual:api-vocabulary';
import type { Lang } from './i18n.js';
import { safeHref } from './safe-href.js';
import { type Label, VALUE_LABELS, type VocabularyName } from './value-labels.js';
export type FieldKind =
  | 'text'
  | 'long'
  | 'number'
  | 'bool'
  | 'list'
  | 'months'
  | 'link'
  | 'enum'
  | 'enumList'
  | 'monthList';

export interface FieldSpec {
  key: string;
  label: Label;
  kind: FieldKind;
  /** Unit shown after a number. */
  unit?: string;
  /** For `enum`: the allowed values. */
  values?: readonly string[];
  /** Whether the API accepts it in a create/update payload. */
  writable?: boolean;
  /** The API never takes null for it: a yes/no or choice field offers no "unknown". */
  required?: boolean;
}

export interface FieldGroup {
  title: Label;
  fields: FieldSpec[];
}

const f = (
  key: string,
  label: Label,
  kind: FieldKind = 'text',
  extra: Partial<FieldSpec> = {},
): FieldSpec => ({
  key,
  label,
  kind,
  writable: true,
  ...extra,
});
const ro = { writable: false };
const ppm = (key: string, de: string, en: string) =>
  f(key, [`${de}`, `${en}`], 'number', { unit: 'ppm', ...ro });
const count = (key: string, de: string, en: string) => f(key, [de, en], 'number');

// The option values come from the API's enums at build time; only their labels live in the site.
export const PLANT_LAYERS = VOCABULARY.plant_layer;
export const DROUGHT_TOLERANCE = VOCABULARY.drought_tolerance;
export const SALT_TOLERANCE = VOCABULARY.salt_tolerance;
export const NATIVE_STATUSES = VOCABULARY.native_status;
export const SUCCESSION = VOCABULARY.succession_stage;
export const RELATIONSHIPS = VOCABULARY.relationship;
export const EVIDENCE = VOCABULARY.evidence;
export const ACTIVITIES = VOCABULARY.activity;
export const LIFE_CYCLES = VOCABULARY.life_cycle;
export const LEAF_RETENTIONS = VOCABULARY.leaf_retention;
export const FLOWER_SEXES = VOCABULARY.flower_sex;
export const NUTRIENT_DEMANDS = VOCABULARY.nutrient_demand;

/** Texts kept per language (`x_de`, `x_en`) beside a neutral `x`. */
export const LOCALIZED = [
  'description',
  'food_uses',
  'medicinal_uses',
  'other_uses',
  'native_range',
  'wildlife_value',
];

export const SPECIES_GROUPS: FieldGroup[] = [
  {
    title: ['Namen und Beschreibung', 'Names and description'],
    fields: [
      f('name_de', ['Deutscher Name', 'German name']),
      f('name_en', ['Englischer Name', 'English name']),
      f('other_names', ['Weitere Namen', 'Other names'], 'list'),
      f('description', ['Beschreibung', 'Description'], 'long'),
      f('plant_layer', ['Schicht im Waldgarten', 'Forest-garden layer'], 'enum', { values: PLANT_LAYERS }),
      f('succession_stage', ['Sukzessionsstadium', 'Succession stage'], 'enum', { values: SUCCESSION }),
      f('native_status', ['Status in Mitteleuropa', 'Status in Central Europe'], 'enum', {
        values: NATIVE_STATUSES,
      }),
      f('native_range', ['Heimat', 'Native range'], 'long'),
      f('invasiveness', ['Ausbreitungsneigung', 'Invasiveness'], 'long'),
    ],
  },
  {
    title: ['Für die Planung', 'For planning'],
    fields: [
      f('life_cycle', ['Lebensdauer', 'Life cycle'], 'enum', { values: LIFE_CYCLES }),
      f('woody', ['Verholzend', 'Woody'], 'bool'),
      f('leaf_retention', ['Laub', 'Foliage'], 'enum', { values: LEAF_RETENTIONS }),
      f('height_m', ['Höhe (ausgewachsen, höchstens)', 'Height (mature, at most)'], 'number', { unit: 'm' }),
      f('width_m', ['Breite (ausgewachsen, höchstens)', 'Width (mature, at most)'], 'number', { unit: 'm' }),
      // Lists the edit form does not offer; they are written through the API.
      f('light', ['Licht', 'Light'], 'enumList', ro),
      f('flower_sex', ['Blütengeschlecht', 'Flower sex'], 'enum', { values: FLOWER_SEXES }),
      f('self_fertile', ['Selbstfruchtbar', 'Self-fertile'], 'bool'),
      f('flowering_months', ['Blütezeit', 'Flowering'], 'monthList', ro),
      f('nutrient_demand', ['Nährstoffbedarf', 'Nutrient demand'], 'enum', { values: NUTRIENT_DEMANDS }),
    ],
  },
  {
    title: ['Boden', 'Soil'],
    fields: [
      f('soil_texture_preference', ['Bevorzugte Bodenart', 'Preferred soil texture'], 'list'),
      f('soil_moisture', ['Bodenfeuchte', 'Soil moisture'], 'text', ro),
      f('drainage_requirement', ['Wasserabzug', 'Drainage'], 'text', ro),
      f('ph_min', ['pH von', 'pH from'], 'number'),
      f('ph_max', ['pH bis', 'pH to'], 'number'),
      f('organic_matter_pct', ['Organische Substanz', 'Organic matter'], 'number', { unit: '%', ...ro }),
      ppm('nitrogen_ppm', 'Stickstoff', 'Nitrogen'),
      ppm('phosphorus_ppm', 'Phosphor', 'Phosphorus'),
      ppm('potassium_ppm', 'Kalium', 'Potassium'),
      ppm('calcium_ppm', 'Calcium', 'Calcium'),
      ppm('magnesium_ppm', 'Magnesium', 'Magnesium'),
      ppm('sulfur_ppm', 'Schwefel', 'Sulphur'),
      ppm('boron_ppm', 'Bor', 'Boron'),
      ppm('copper_ppm', 'Kupfer', 'Copper'),
      ppm('iron_ppm', 'Eisen', 'Iron'),
      ppm('manganese_ppm', 'Mangan', 'Manganese'),
      ppm('molybdenum_ppm', 'Molybdän', 'Molybdenum'),
      ppm('zinc_ppm', 'Zink', 'Zinc'),
    ],
  },
  {
    title: ['Klima und Winterhärte', 'Climate and hardiness'],
    fields: [
      f('hardiness_zone_usda', ['Winterhärtezone (USDA)', 'Hardiness zone (USDA)']),
      f('hardiness_zone_at', ['Winterhärtezone (Österreich)', 'Hardiness zone (Austria)']),
      f('min_temp', ['Tiefste Temperatur', 'Lowest temperature'], 'number', { unit: '°C' }),
      f('max_temp', ['Höchste Temperatur', 'Highest temperature'], 'number', { unit: '°C' }),
      f('drought_tolerance', ['Trockenheitsverträglichkeit', 'Drought tolerance'], 'enum', {
        values: DROUGHT_TOLERANCE,
      }),
      f('salt_tolerance', ['Salzverträglichkeit', 'Salt tolerance'], 'enum', { values: SALT_TOLERANCE }),
      f('water_requirement_mm_week', ['Wasserbedarf', 'Water need'], 'number', { unit: 'mm/week', ...ro }),
      f('waterlogging_tolerance', ['Verträgt Staunässe', 'Tolerates waterlogging'], 'bool', ro),
    ],
  },
  {
    title: ['Nutzen', 'Uses'],
    fields: [
      f('edibility_rating', ['Essbarkeit (0–5)', 'Edibility (0–5)'], 'number'),
      f('food_uses', ['Als Nahrung', 'Food uses'], 'long'),
      f('medicinal_uses', ['Als Heilpflanze', 'Medicinal uses'], 'long'),
      f('other_uses', ['Weitere Nutzung', 'Other uses'], 'long'),
      f('pollination_type', ['Bestäubung', 'Pollination']),
    ],
  },
  {
    title: ['Ökologie und Wildtiere', 'Ecology and wildlife'],
    fields: [
      f('nitrogen_fixer', ['Bindet Stickstoff', 'Fixes nitrogen'], 'bool'),
      f('dynamic_accumulator', ['Nährstoffsammler', 'Dynamic accumulator'], 'bool'),
      f('dynamic_accumulator_nutrients', ['Gesammelte Nährstoffe', 'Accumulated nutrients'], 'list'),
      f('attracts_pollinators', ['Lockt Bestäuber', 'Attracts pollinators'], 'bool'),
      f('attracts_beneficial_insects', ['Lockt Nützlinge', 'Attracts beneficial insects'], 'bool'),
      f('mulch_plant', ['Mulchpflanze', 'Mulch plant'], 'bool'),
      f(
        'allelopathic',
        ['Hemmt andere Pflanzen (allelopathisch)', 'Inhibits other plants (allelopathic)'],
        'bool',
      ),
      f('heavy_metal_tolerance', ['Verträgt Schwermetalle', 'Tolerates heavy metals'], 'bool'),
      f('ground_cover_quality', ['Bodendecker-Eignung', 'As ground cover']),
      f('guild_role', ['Rolle in der Gilde', 'Guild roles'], 'list'),
      f('nectar_value', ['Nektarwert (0–4)', 'Nectar value (0–4)'], 'number'),
      f('pollen_value', ['Pollenwert (0–4)', 'Pollen value (0–4)'], 'number'),
      count('wild_bee_count', 'Wildbienenarten', 'Wild bee species'),
      count('wild_bee_specialist_count', 'Darauf spezialisierte Wildbienen', 'Specialist wild bees'),
      count('butterfly_moth_count', 'Schmetterlingsarten', 'Butterfly and moth species'),
      count('caterpillar_host_count', 'Raupen, die sie fressen', 'Caterpillars feeding on it'),
      count('caterpillar_specialist_count', 'Darauf spezialisierte Raupen', 'Specialist caterpillars'),
      count('hoverfly_count', 'Schwebfliegenarten', 'Hoverfly species'),
      count('beetle_count', 'Käferarten', 'Beetle species'),
      count('bird_count', 'Vogelarten', 'Bird species'),
      count('mammal_count', 'Säugetierarten', 'Mammal species'),
      f('wildlife_value', ['Wert für Wildtiere', 'Wildlife value'], 'long'),
    ],
  },
  {
    title: ['Verweise', 'External references'],
    fields: [
      f('kb_qid', ['Wikidata', 'Wikidata'], 'link'),
      f('biodiv_id', ['GBIF', 'GBIF'], 'link'),
      f('plantprot_code', ['EPPO-Code', 'EPPO code'], 'link'),
      f('usesdb_url', ['Nutzpflanzen-Datenbank', 'Plant-uses database'], 'link'),
      f('extdb_tags', ['Schlagwörter', 'Tags']),
      f('source_urls', ['Quellen', 'Sources'], 'list'),
    ],
  },
];

export const FAMILY_FIELDS: FieldSpec[] = [
  f('name_scientific', ['Wissenschaftlicher Name', 'Scientific name']),
  f('name_de', ['Deutscher Name', 'German name']),
  f('name_en', ['Englischer Name', 'English name']),
  f('description', ['Beschreibung', 'Description'], 'long'),
];

/** A supplier's own record (its links to cultivars are edited on the cultivar's page). */
export const SUPPLIER_FIELDS: FieldSpec[] = [
  f('name', ['Name', 'Name']),
  f('url', ['Website', 'Website'], 'link'),
  f('country', ['Land', 'Country']),
  f('is_organic', ['Bio-zertifiziert', 'Certified organic'], 'bool', { required: true }),
  f('is_biodynamic', ['Biodynamisch (z. B. Demeter)', 'Biodynamic (e.g. Demeter)'], 'bool', {
    required: true,
  }),
  f('notes', ['Hinweise', 'Notes'], 'long'),
];

export const CULTIVAR_GROUPS: FieldGroup[] = [
  {
    title: ['Namen und Beschreibung', 'Names and description'],
    fields: [
      f('name_de', ['Deutscher Name', 'German name']),
      f('name_en', ['Englischer Name', 'English name']),
      f('other_names', ['Weitere Namen', 'Other names'], 'list'),
      f('description', ['Beschreibung', 'Description'], 'long'),
      f('perennial', ['Mehrjährig', 'Perennial'], 'bool'),
      f('is_organic', ['Bio-Saatgut', 'Organic seed'], 'bool'),
    ],
  },
  {
    title: ['Aussaat und Pflanzung', 'Sowing and planting'],
    fields: [
      f('indoor_sowing_months', ['Vorziehen', 'Sow indoors'], 'months'),
      f('direct_sowing_months', ['Direktsaat', 'Sow outdoors'], 'months'),
      f('transplanting_months', ['Auspflanzen', 'Plant out'], 'months'),
      f('glasshouse_months', ['Gewächshaus', 'Glasshouse'], 'months'),
      f('harvesting_months', ['Ernte', 'Harvest'], 'months'),
      f('days_to_germination', ['Tage bis zur Keimung', 'Days to germination'], 'number'),
      f('germination_temp_c', ['Keimtemperatur', 'Germination temperature'], 'number', { unit: '°C' }),
      f('planting_depth_cm', ['Saattiefe', 'Sowing depth'], 'number', { unit: 'cm' }),
      f('row_spacing_cm', ['Reihenabstand', 'Row spacing'], 'number', { unit: 'cm' }),
      f('plant_spacing_cm', ['Abstand in der Reihe', 'Plant spacing'], 'number', { unit: 'cm' }),
      f('growing_time_days', ['Kulturdauer', 'Growing time'], 'number', { unit: 'd' }),
      f('light_requirement', ['Lichtbedarf', 'Light']),
      f('stratification_required', ['Braucht Kältebehandlung', 'Needs stratification'], 'bool', ro),
      f('stratification_days', ['Kältebehandlung', 'Stratification'], 'number', { unit: 'd', ...ro }),
      f('scarification_required', ['Samen anritzen', 'Needs scarification'], 'bool', ro),
      f('propagation_methods', ['Vermehrung', 'Propagation'], 'list', ro),
      f('planting_notes', ['Hinweise zur Pflanzung', 'Planting notes'], 'long', ro),
      f('succession_planting_days', ['Folgesaat alle', 'Succession sowing every'], 'number', {
        unit: 'd',
        ...ro,
      }),
    ],
  },
  {
    title: ['Klima', 'Climate'],
    fields: [
      f('min_temp', ['Tiefste Temperatur', 'Lowest temperature'], 'number', { unit: '°C', ...ro }),
      f('max_temp', ['Höchste Temperatur', 'Highest temperature'], 'number', { unit: '°C', ...ro }),
      f('frost_tolerance', ['Frostverträglichkeit', 'Frost tolerance'], 'text', ro),
      f('heating_required', ['Braucht Heizung', 'Needs heating'], 'bool', ro),
      f('greenhouse_min_temp_c', ['Gewächshaus mindestens', 'Glasshouse minimum'], 'number', {
        unit: '°C',
        ...ro,
      }),
      f('humidity', ['Luftfeuchte', 'Humidity'], 'text', ro),
      f('light', ['Licht', 'Light'], 'text', ro),
      f('min_light_hours_day', ['Licht mindestens', 'Minimum light'], 'number', { unit: 'h', ...ro }),
      f('optimal_light_hours_day', ['Licht optimal', 'Optimal light'], 'number', { unit: 'h', ...ro }),
      f('ventilation_requirement', ['Lüftung', 'Ventilation'], 'text', ro),
    ],
  },
  {
    title: ['Ernte und Lagerung', 'Harvest and storage'],
    fields: [
      f('years_to_first_harvest', ['Jahre bis zur ersten Ernte', 'Years to first harvest'], 'number', ro),
      f('productive_lifespan_years', ['Ertragsjahre', 'Productive years'], 'number', ro),
      f('harvest_window_days', ['Erntefenster', 'Harvest window'], 'number', { unit: 'd', ...ro }),
      f('expected_yield_kg_per_m2', ['Ertrag', 'Yield'], 'number', { unit: 'kg/m²', ...ro }),
      f('cutting_season', ['Schnittzeit', 'Cutting season'], 'text', ro),
      f('pollination_group', ['Befruchtergruppe', 'Pollination group'], 'text', ro),
      f('self_fertile', ['Selbstfruchtbar', 'Self-fertile'], 'bool', ro),
      f('rootstock_compatibility', ['Unterlagen', 'Rootstocks'], 'long', ro),
      f('storage_method', ['Lagerung', 'Storage'], 'list', ro),
      f('storage_temp_c', ['Lagertemperatur', 'Storage temperature'], 'number', { unit: '°C', ...ro }),
      f('storage_humidity', ['Luftfeuchte im Lager', 'Storage humidity'], 'text', ro),
      f('shelf_life_days', ['Haltbarkeit', 'Shelf life'], 'number', { unit: 'd', ...ro }),
      f('cold_storage_days', ['Im Kühllager', 'In cold storage'], 'number', { unit: 'd', ...ro }),
      f(
        'seed_viability_years',
        ['Keimfähigkeit des Saatguts (Jahre)', 'Seed viability (years)'],
        'number',
        ro,
      ),
      f('storage_notes', ['Hinweise zur Lagerung', 'Storage notes'], 'long', ro),
    ],
  },
  {
    title: ['Verweise', 'External references'],
    fields: [
      f('kb_qid', ['Wikidata', 'Wikidata'], 'link', ro),
      f('biodiv_id', ['GBIF', 'GBIF'], 'link', ro),
      f('usesdb_url', ['Nutzpflanzen-Datenbank', 'Plant-uses database'], 'link', ro),
      f('source_urls', ['Quellen', 'Sources'], 'list'),
    ],
  },
];

/** Vocabularies whose words read differently from the same word elsewhere (`root`, a part and a layer). */
const OWN_WORDS = new Set<string>(['part']);

/**
 * Every labelled value, whichever vocabulary it belongs to (a value reads the same in each), but
 * those of OWN_WORDS, labelled by vocabularyLabel.
 */
const VALUES: Record<string, Label> = Object.assign(
  {},
  ...Object.entries(VALUE_LABELS)
    .filter(([name]) => !OWN_WORDS.has(name))
    .map(([, labels]) => labels),
);

/** A value of the named vocabulary in plain words. */
export function vocabularyLabel(vocabulary: VocabularyName, value: string, lang: Lang): string {
  const labels = VALUE_LABELS[vocabulary] as Record<string, Label>;
  const found = labels[value];
  return found ? found[lang === 'de' ? 0 : 1] : value;
}

/**
 * The words of the warnings about a species' legal status and hazards, where people decide
 * whether to plant it (species pages, guild cards, the plant-list check).
 */
export const WARNING_LABELS = {
  legalStatus: ['Rechtlicher Status', 'Legal status'],
  hazards: ['Gefahren', 'Hazards'],
  ediblePartsTitle: ['Essbare Teile', 'Edible parts'],
  caution: ['Vorsicht', 'Caution'],
  parts: ['Betroffene Teile', 'Parts concerned'],
  source: ['Quelle', 'Source'],
  excluded: ['Nicht vorgeschlagen (gesetzlich eingeschränkt)', 'Not suggested (restricted by law)'],
  excludedIntro: [
    'Diese Arten kämen in Frage, dürfen aber nicht gepflanzt oder verkauft werden:',
    'These species would qualify, but may not be planted or sold:',
  ],
  country: ['Land (für nationale Verbote)', 'Country (for national bans)'],
  anyCountry: ['nur EU-Recht', 'EU law only'],
  membersLegal: ['Arten mit rechtlichem Status', 'Species with a legal status'],
  membersHazards: ['Arten mit Gefahren', 'Species with hazards'],
} as const satisfies Record<string, Label>;

/** Where a legal status holds, in plain words (an ISO code the site does not name stays a code). */
const JURISDICTIONS: Record<string, Label> = {
  EU: ['EU', 'EU'],
  CH: ['Schweiz', 'Switzerland'],
  DE: ['Deutschland', 'Germany'],
  AT: ['Österreich', 'Austria'],
  FR: ['Frankreich', 'France'],
  IT: ['Italien', 'Italy'],
  LI: ['Liechtenstein', 'Liechtenstein'],
};

export const COUNTRIES = ['CH', 'DE', 'AT', 'FR', 'IT', 'LI'] as const;

export function jurisdictionLabel(code: string, lang: Lang): string {
  const found = JURISDICTIONS[code];
  return found ? found[lang === 'de' ? 0 : 1] : code;
}

/** The value of an enumerated field in plain words. */
export function valueLabel(value: string, lang: Lang): string {
  const label = VALUES[value];
  return label ? label[lang === 'de' ? 0 : 1] : value;
}

export function label(l: Label, lang: Lang): string {
  return l[lang === 'de' ? 0 : 1];
}

/** A localized text in the language asked for, else in the other, else the neutral one. */
export function localized(record: Record<string, unknown>, key: string, lang: Lang): string | null {
  const other = lang === 'de' ? 'en' : 'de';
  for (const k of [`${key}_${lang}`, key, `${key}_${other}`]) {
    const value = record[k];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** Where an external reference points. */
export function referenceUrl(key: string, value: string): string | null {
  if (/^\s*[a-z][a-z0-9+.-]*:/i.test(value)) return safeHref(value) ?? null;
  if (key === 'kb_qid') return `https://www.wikidata.org/wiki/${encodeURIComponent(value)}`;
  if (key === 'biodiv_id') return `https://www.gbif.org/species/${encodeURIComponent(value)}`;
  if (key === 'plantprot_code') return `https://gd.eppo.int/taxon/${encodeURIComponent(value)}`;
  return null;
}

/** The fields an edit form offers: the writable ones, a localized text once per language. */
export function editableFields(groups: FieldGroup[]): FieldSpec[] {
  return groups
    .flatMap((group) => group.fields)
    .filter((field) => field.writable)
    .flatMap((field) =>
      LOCALIZED.includes(field.key)
        ? [
            field,
            {
              ...field,
              key: `${field.key}_de`,
              label: [`${field.label[0]} (Deutsch)`, `${field.label[1]} (German)`],
            },
            {
              ...field,
              key: `${field.key}_en`,
              label: [`${field.label[0]} (Englisch)`, `${field.label[1]} (English)`],
            },
          ]
        : [field],
    );
}

/** Labels of every field a record's history may name, by key. */
const FIELD_LABELS: ReadonlyMap<string, Label> = new Map(
  [
    ...SPECIES_GROUPS,
    ...CULTIVAR_GROUPS,
    { title: ['', ''] as Label, fields: [...FAMILY_FIELDS, ...SUPPLIER_FIELDS] },
  ]
    .flatMap((group) => group.fields)
    .flatMap((field): [string, Label][] => [
      [field.key, field.label],
      ...(LOCALIZED.includes(field.key)
        ? ([
            [`${field.key}_de`, [`${field.label[0]} (Deutsch)`, `${field.label[1]} (German)`]],
            [`${field.key}_en`, [`${field.label[0]} (Englisch)`, `${field.label[1]} (English)`]],
          ] as [string, Label][])
        : []),
    ]),
);

/** A field's label in plain words; a field the site does not show reads as its key. */
export function fieldLabel(key: string, lang: Lang): string {
  const known = FIELD_LABELS.get(key);
  return known ? label(known, lang) : key;
}
