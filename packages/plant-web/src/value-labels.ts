/**
 * The words people read for the values of the API's enumerated fields, German and English. The
 * values themselves are not kept here: the build takes them from the enums of the committed
 * OpenAPI document (build/api-vocabulary.ts) and refuses to build when one has no label here.
 * Plain data without imports, so the service's tests can check it against the document too.
 */
export type Label = readonly [de: string, en: string];

const TOLERANCE = {
  low: ['gering', 'low'],
  medium: ['mittel', 'medium'],
  high: ['hoch', 'high'],
} as const satisfies Record<string, Label>;

const GUILD_ROLES = {
  nitrogen_fixer: ['Stickstoffbinder', 'Nitrogen fixer'],
  dynamic_accumulator: ['Nährstoffsammler', 'Dynamic accumulator'],
  pollinator_attractor: ['Lockt Bestäuber', 'Pollinator attractor'],
  beneficial_insect_attractor: ['Lockt Nützlinge', 'Beneficial insect attractor'],
  ground_cover: ['Bodendecker', 'Ground cover'],
  mulch_plant: ['Mulchpflanze', 'Mulch plant'],
} as const satisfies Record<string, Label>;

/** Per vocabulary (named as the API's field or parameter is): each value's label. */
export const VALUE_LABELS = {
  plant_layer: {
    canopy: ['Baumschicht', 'Canopy'],
    sub_canopy: ['Niedrige Bäume', 'Sub-canopy'],
    shrub: ['Strauchschicht', 'Shrub'],
    herb: ['Krautschicht', 'Herb'],
    ground_cover: ['Bodendecker', 'Ground cover'],
    climber: ['Kletterpflanze', 'Climber'],
    root: ['Wurzelschicht', 'Root'],
    aquatic: ['Wasserpflanze', 'Aquatic'],
  },
  drought_tolerance: TOLERANCE,
  salt_tolerance: TOLERANCE,
  native_status: {
    native: ['heimisch', 'native'],
    archaeophyte: ['Archäophyt (vor 1492 eingeführt)', 'archaeophyte (came before 1492)'],
    neophyte: ['Neophyt (nach 1492 eingeführt)', 'neophyte (came after 1492)'],
    introduced: ['eingeführt, nicht verwildert', 'introduced, not naturalised'],
  },
  succession_stage: {
    pioneer: ['Pionier', 'pioneer'],
    early: ['früh', 'early'],
    mid: ['mittel', 'mid'],
    late: ['spät', 'late'],
    climax: ['Klimax', 'climax'],
  },
  relationship: {
    beneficial: ['gut', 'good'],
    antagonistic: ['schlecht', 'bad'],
    neutral: ['neutral', 'neutral'],
  },
  evidence: {
    scientific: ['wissenschaftlich belegt', 'scientific study'],
    documented: ['dokumentiert', 'documented'],
    traditional: ['Gärtnerwissen', 'garden lore'],
  },
  activity: {
    indoor_sowing: ['Vorziehen', 'Sow indoors'],
    direct_sowing: ['Direktsaat', 'Sow outdoors'],
    transplanting: ['Auspflanzen', 'Plant out'],
    glasshouse: ['Gewächshaus', 'Glasshouse'],
    harvesting: ['Ernte', 'Harvest'],
  },
  missing_roles: GUILD_ROLES,
  functions: GUILD_ROLES,
  life_cycle: {
    annual: ['einjährig', 'annual'],
    biennial: ['zweijährig', 'biennial'],
    perennial: ['mehrjährig', 'perennial'],
  },
  leaf_retention: {
    deciduous: ['laubabwerfend', 'deciduous'],
    semi_evergreen: ['halbimmergrün', 'semi-evergreen'],
    evergreen: ['immergrün', 'evergreen'],
  },
  light: {
    full_sun: ['sonnig', 'full sun'],
    partial_shade: ['halbschattig', 'partial shade'],
    shade: ['schattig', 'shade'],
  },
  flower_sex: {
    hermaphrodite: ['zwittrig', 'hermaphrodite'],
    monoecious: ['einhäusig', 'monoecious'],
    dioecious: ['zweihäusig', 'dioecious'],
    polygamous: ['polygam', 'polygamous'],
  },
  nutrient_demand: TOLERANCE,
  /**
   * `kind` names three vocabularies in the API: of legal status, of hazard, and of the records and
   * writers a change log entry names.
   */
  kind: {
    family: ['Familie', 'Family'],
    species: ['Art', 'Species'],
    cultivar: ['Sorte', 'Cultivar'],
    supplier: ['Bezugsquelle', 'Supplier'],
    cultivar_supplier: ['Sorte bei Bezugsquelle', 'Cultivar at supplier'],
    companion: ['Nachbarschaft', 'Companion relation'],
    image: ['Bild', 'Image'],
    user: ['Person', 'User'],
    token: ['API-Token', 'API token'],
    import: ['Import', 'Import'],
    database: ['Datenbank', 'Database'],
    union_list_invasive: ['Invasive Art der EU-Unionsliste', 'Invasive species of the EU Union list'],
    banned: ['Verboten', 'Banned'],
    sale_banned: ['Verkauf verboten', 'Sale banned'],
    protected: ['Geschützt', 'Protected'],
    toxic: ['Giftig', 'Toxic'],
    phototoxic: [
      'Phototoxisch (Saft verbrennt die Haut im Sonnenlicht)',
      'Phototoxic (sap burns skin in sunlight)',
    ],
    irritant: ['Reizend', 'Irritant'],
    lookalike: ['Verwechslungsgefahr', 'Look-alike risk'],
  },
  /** Parts of a plant (hazards and edible parts); labelled apart, as `root` is also a layer. */
  part: {
    whole: ['ganze Pflanze', 'whole plant'],
    root: ['Wurzel', 'root'],
    bulb: ['Zwiebel', 'bulb'],
    tuber: ['Knolle', 'tuber'],
    stem: ['Stängel', 'stem'],
    bark: ['Rinde', 'bark'],
    leaf: ['Blatt', 'leaf'],
    flower: ['Blüte', 'flower'],
    fruit: ['Frucht', 'fruit'],
    seed: ['Samen', 'seed'],
    sap: ['Pflanzensaft', 'sap'],
    pollen: ['Pollen', 'pollen'],
    shoot: ['Spross', 'shoot'],
    pod: ['Hülse', 'pod'],
    nut: ['Nuss', 'nut'],
  },
} as const satisfies Record<string, Record<string, Label>>;

export type VocabularyName = keyof typeof VALUE_LABELS;
export type Vocabularies = Record<VocabularyName, readonly string[]>;
