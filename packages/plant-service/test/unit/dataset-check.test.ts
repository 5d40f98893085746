/** Reading and checking dataset input without a database: every problem, with file, line and field. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromCell, toCell } from '../../src/dataset/csv-cells.js';
import { checkInput } from '../../src/dataset/import.js';
import { KIND } from '../../src/dataset/kinds.js';
import { formatProblem } from '../../src/dataset/problems.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dataset-check-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes the files into a new directory and returns the formatted problems of checking it. */
async function problemsOf(files: Record<string, string>, input?: string): Promise<string[]> {
  const base = await mkdtemp(path.join(dir, 'case-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(base, name)), { recursive: true });
    await writeFile(path.join(base, name), text);
  }
  const { problems } = await checkInput([input ? path.join(base, input) : base]);
  return problems.map((p) => formatProblem(p).replace(`${base}/`, ''));
}

const jsonl = (...records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe('dataset check', () => {
  it('reports every bad record of every file with its line and field', async () => {
    const problems = await problemsOf({
      'families.jsonl': [
        '{"slug":"rosaceae","name_scientific":"Rosaceae"}',
        '',
        '{"slug":"Bad Slug","name_scientific":"  "}',
        'not json',
        '[1,2]',
        '{"slug":"rosaceae","name_scientific":"Rosaceae","colour":"red"}',
      ].join('\n'),
      'species.jsonl': jsonl(
        { slug: 'malus-domestica', family: 'rosaceae', name_scientific: 'Malus domestica', ph_min: 15 },
        {
          slug: 'pyrus-communis',
          family: 'nofamily',
          name_scientific: 'Pyrus communis',
          plant_layer: 'tree',
        },
        { slug: 'prunus-avium', name_scientific: 'Prunus avium', harvesting_months: [7] },
      ),
      'companions.jsonl': jsonl(
        { species_a: 'malus-domestica', species_b: 'malus-domestica', relationship: 'beneficial' },
        { species_a: 'pyrus-communis', species_b: 'malus-domestica', relationship: 'neutral' },
        {
          species_a: 'malus-domestica',
          species_b: 'pyrus-communis',
          relationship: 'friends',
          evidence: 'lore',
        },
        { species_a: 'malus-domestica', species_b: 'sorbus-aucuparia', relationship: 'neutral' },
      ),
    });
    expect(problems).toEqual([
      'families.jsonl:3: slug: must be lowercase ASCII letters and digits, single hyphens between',
      'families.jsonl:3: name_scientific: must match pattern "\\S"',
      expect.stringMatching(/^families\.jsonl:4: not valid JSON/),
      'families.jsonl:5: must be a JSON object',
      'families.jsonl:6: colour: is not a known field',
      "families.jsonl:6: slug: slug 'rosaceae' is already on line 1",
      'species.jsonl:1: ph_min: must be <= 14',
      'species.jsonl:2: plant_layer: must be one of: canopy, sub_canopy, shrub, herb, ground_cover, climber, root, aquatic',
      "species.jsonl:2: family: no family 'nofamily' in the input",
      'species.jsonl:3: family: is required',
      'species.jsonl:3: harvesting_months: is not a known field',
      'companions.jsonl:1: species_b: must differ from species_a',
      'companions.jsonl:3: relationship: must be one of: beneficial, antagonistic, neutral',
      'companions.jsonl:3: evidence: must be one of: scientific, documented, traditional',
      'companions.jsonl:3: species_a, species_b: the pair malus-domestica / pyrus-communis (in either order) is already on line 2',
      "companions.jsonl:4: species_b: no species 'sorbus-aucuparia' in the input",
    ]);
  });

  it("checks the planner fields' shapes: vocabularies, members, http(s) sources, ascending months", async () => {
    const source = 'https://eur-lex.europa.eu/eli/reg_impl/2016/1141/oj';
    const species = (slug: string, values: object) => ({
      slug,
      family: 'apiaceae',
      name_scientific: slug,
      ...values,
    });
    const problems = await problemsOf({
      'families.jsonl': jsonl({ slug: 'apiaceae', name_scientific: 'Apiaceae' }),
      'species.jsonl': jsonl(
        species('a', {
          legal_status: [{ jurisdiction: 'EU', kind: 'union_list_invasive', source }],
          hazards: [
            { kind: 'lookalike', parts: [], text_en: 'Like hemlock.', text_de: 'Wie Schierling.', source },
          ],
          edible_parts: [{ part: 'root', caution_en: 'Cook.', caution_de: 'Kochen.' }, { part: 'shoot' }],
          light: ['full_sun'],
          flowering_months: [5, 6, 7],
          life_cycle: 'biennial',
          height_m: 1.5,
        }),
        species('b', {
          legal_status: [{ jurisdiction: 'EU', kind: 'union_list_invasive', source: 'www.example.org' }],
        }),
        species('c', { legal_status: [{ jurisdiction: 'eu', kind: 'protected', source }] }),
        species('d', { hazards: [{ kind: 'toxic', parts: ['berry'], text_en: 'x', text_de: 'y', source }] }),
        species('e', { edible_parts: [{ part: 'leaf', preparation: 'raw' }] }),
        species('f', { flowering_months: [8, 7], light: [] }),
        species('g', { legal_status: { jurisdiction: 'EU' }, height_m: 0 }),
      ),
    });
    expect(problems).toEqual([
      'species.jsonl:2: legal_status.0.source: must be an http or https URL',
      'species.jsonl:3: legal_status.0.jurisdiction: must match pattern "^(EU|[A-Z]{2})$"',
      'species.jsonl:4: hazards.0.parts.0: must be one of: whole, root, bulb, tuber, stem, bark, leaf, flower, fruit, seed, sap, pollen',
      'species.jsonl:5: edible_parts.0.preparation: is not a known field',
      'species.jsonl:6: light: must not have fewer than 1 items',
      'species.jsonl:6: flowering_months: must be in ascending order, each month once',
      'species.jsonl:7: legal_status: must be array or null',
      'species.jsonl:7: height_m: must be > 0',
    ]);
  });

  it('reads CSV: typed cells, JSON arrays, null and empty strings, lines of multi-line cells', async () => {
    const csv = [
      'slug,family,name_scientific,description,nitrogen_fixer,ph_min,guild_role,name_de,colour',
      'vicia-faba,fabaceae,Vicia faba,"Broad bean,',
      'an old crop.",TRUE,6.5,"[""food"",""nitrogen_fixer""]",,',
      'lens-culinaris,fabaceae,Lens culinaris,"",yes,abc,food,"",',
      'pisum-sativum,fabaceae,Pisum sativum,x,false,7',
    ].join('\n');
    const problems = await problemsOf({
      'families.jsonl': jsonl({ slug: 'fabaceae', name_scientific: 'Fabaceae' }),
      'species.csv': csv,
    });
    expect(problems).toEqual([
      'species.csv:1: colour: is not a known column',
      'species.csv:4: ph_min: must be number or null',
      'species.csv:4: nitrogen_fixer: must be boolean or null',
      'species.csv:4: guild_role: must be a JSON array, e.g. ["a","b"] or [4,5]',
      expect.stringMatching(/^species\.csv:5: Invalid Record Length/),
    ]);
    const base = path.join(dir, 'csv-values');
    await mkdir(base);
    await writeFile(
      path.join(base, 'species.csv'),
      [
        'slug,family,name_scientific,description,nitrogen_fixer,ph_min,guild_role,name_de',
        'vicia-faba,fabaceae,Vicia faba,"Broad bean,',
        'an old crop.",TRUE,6.5,"[""food"",""nitrogen_fixer""]",""',
        '',
        'lens-culinaris,fabaceae,Lens culinaris,,false,,[],',
      ].join('\r\n'),
    );
    const { sources } = await checkInput([path.join(base, 'species.csv')]);
    expect(sources.map((s) => [s.line, s.record])).toEqual([
      [
        2,
        {
          slug: 'vicia-faba',
          family: 'fabaceae',
          name_scientific: 'Vicia faba',
          description: 'Broad bean,\r\nan old crop.',
          nitrogen_fixer: true,
          ph_min: 6.5,
          guild_role: ['food', 'nitrogen_fixer'],
          name_de: '',
        },
      ],
      [
        5,
        {
          slug: 'lens-culinaris',
          family: 'fabaceae',
          name_scientific: 'Lens culinaris',
          nitrogen_fixer: false,
          guild_role: [],
        },
      ],
    ]);
  });

  it('encodes CSV cells so that they read back as the same values', () => {
    const species = KIND.species.schema.properties as Record<string, never>;
    for (const [field, value] of [
      ['name_de', 'Möhre, "Karotte"'],
      ['name_de', ''],
      ['ph_min', -0.5],
      ['ph_min', 1e-7],
      ['edibility_rating', 3],
      ['nitrogen_fixer', false],
      ['guild_role', ['food', 'a,b "c"']],
      ['guild_role', []],
      [
        'hazards',
        [{ kind: 'toxic', parts: ['seed'], text_en: 'a, "b"', text_de: 'ü\n', source: 'https://x.org' }],
      ],
      ['edible_parts', [{ part: 'leaf', caution_en: null }]],
    ] as const) {
      const cell = toCell(value);
      expect(cell).not.toBeNull();
      expect(fromCell(species[field], cell as string), `${field} ${JSON.stringify(value)}`).toEqual(value);
    }
    expect(toCell(null)).toBeNull();
  });

  it('reads a typed stream, whatever its name; resource files may carry their own type only', async () => {
    const stream = jsonl(
      { type: 'family', slug: 'rosaceae', name_scientific: 'Rosaceae' },
      { type: 'species', slug: 'malus-domestica', family: 'rosaceae', name_scientific: 'Malus domestica' },
      { slug: 'no-type', name_scientific: 'X' },
      { type: 'tree', slug: 'x' },
    );
    expect(await problemsOf({ 'dump.ndjson': stream }, 'dump.ndjson')).toEqual([
      'dump.ndjson:3: type: is required: one of family, species, supplier, cultivar, cultivar_supplier, companion',
      'dump.ndjson:4: type: must be one of family, species, supplier, cultivar, cultivar_supplier, companion',
    ]);
    expect(
      await problemsOf(
        {
          'families.jsonl': jsonl(
            { type: 'family', slug: 'rosaceae', name_scientific: 'Rosaceae' },
            { type: 'species', slug: 'x', name_scientific: 'X' },
          ),
        },
        'families.jsonl',
      ),
    ).toEqual(['families.jsonl:2: type: must be "family" in a families file (or left out)']);
  });

  it('refuses ambiguous or missing input', async () => {
    expect(
      await problemsOf({
        'families.jsonl': jsonl({ slug: 'rosaceae', name_scientific: 'Rosaceae' }),
        'families.csv': 'slug,name_scientific\nrosaceae,Rosaceae\n',
      }),
    ).toEqual(['families: both families.jsonl and families.csv exist; keep one']);
    expect(await problemsOf({ 'README.md': '# nothing here' })).toEqual([
      expect.stringMatching(/: no dataset files here \(expected families\.jsonl or \.csv, /),
    ]);
    expect(await problemsOf({ 'plants.csv': 'slug\n' }, 'plants.csv')).toEqual([
      expect.stringMatching(/^plants\.csv: a CSV file is named for its resource: families\.csv, /),
    ]);
    const { problems } = await checkInput([path.join(dir, 'missing')]);
    expect(problems.map(formatProblem)).toEqual([`${path.join(dir, 'missing')}: no such file or directory`]);
  });
});
