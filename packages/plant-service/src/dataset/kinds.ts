/**
 * The six record kinds of the interchange format (data/README.md): how each is named in a dataset
 * directory and in the export stream, its schema, its identity and its references by slug.
 *
 * Every schema is derived from the API's own declarations (field catalogues and create schemas):
 * a dataset record is the create payload with the import-only fields added, every uuid reference
 * replaced by the referenced record's slug, and the record's own slug.
 */
import type { PgTable } from 'drizzle-orm/pg-core';
import { type TObject, type TSchema, Type } from 'typebox';
import type { CatalogueTable } from '../db/catalogue-repository.js';
import { companions, cultivarSuppliers, cultivars, families, species, suppliers } from '../db/tables.js';
import { companionFields } from '../schema/companions.js';
import { cultivarFields } from '../schema/cultivar-fields.js';
import { cultivarSupplierFields } from '../schema/cultivars.js';
import { familyFields } from '../schema/families.js';
import { createProps, type Fields } from '../schema/fields.js';
import { speciesFields } from '../schema/species-fields.js';
import { supplierFields } from '../schema/suppliers.js';
import { Nullable } from '../schema/types.js';

export const KIND_NAMES = [
  'family',
  'species',
  'supplier',
  'cultivar',
  'cultivar_supplier',
  'companion',
] as const;
export type KindName = (typeof KIND_NAMES)[number];

/** A reference by slug: the record field, the table column holding the uuid, the kind referred to. */
export interface Reference {
  readonly field: string;
  readonly column: string;
  readonly target: KindName;
  readonly optional: boolean;
}

export interface Kind {
  readonly name: KindName;
  /** Base name of its file in a dataset directory (`<file>.jsonl` or `<file>.csv`). */
  readonly file: string;
  readonly table: PgTable;
  /** The record's schema; its property order is the key order of exported records. */
  readonly schema: TObject;
  /** Record fields that refer to other records by slug. */
  readonly references: readonly Reference[];
  /** The fields that identify a record: its slug, or the pair it links. */
  readonly identity: readonly string[];
  /** A companion pair is one relation whichever order its species are given in. */
  readonly unordered: boolean;
}

/**
 * Not part of the interchange format: `primary_image_key` follows the images, which are files in
 * the object store and are neither exported nor imported; import leaves it as it is.
 */
const NOT_INTERCHANGED = new Set(['primary_image_key']);

export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const Slug = Type.String({
  pattern: SLUG_PATTERN,
  maxLength: 200,
  description: 'Lowercase ASCII letters and digits, single hyphens between (data/README.md).',
});
const slugRef = (target: string) =>
  Type.String({ minLength: 1, maxLength: 200, description: `Slug of a ${target}.` });

type Props = Record<string, TSchema>;

/**
 * A catalogue's fields as a create takes them, import-only fields included (required fields with
 * their payload constraints, the others optional); uuid references become slugs.
 */
function catalogueProps(fields: Fields, references: Record<string, { field: string; target: string }> = {}) {
  const props: Props = {};
  for (const [name, schema] of Object.entries(createProps(fields, 'all'))) {
    if (NOT_INTERCHANGED.has(name)) continue;
    const reference = references[name];
    props[reference?.field ?? name] = reference ? Type.Optional(Nullable(slugRef(reference.target))) : schema;
  }
  return props;
}

const object = (props: Props, description: string) =>
  Type.Object(props, { additionalProperties: false, description });

const ref = (field: string, column: string, target: KindName, optional = false): Reference => ({
  field,
  column,
  target,
  optional,
});

const kindList: Kind[] = [
  {
    name: 'family',
    file: 'families',
    table: families,
    schema: object({ slug: Slug, ...catalogueProps(familyFields) }, 'A family.'),
    references: [],
    identity: ['slug'],
    unordered: false,
  },
  {
    name: 'species',
    file: 'species',
    table: species,
    schema: object(
      {
        slug: Slug,
        family: slugRef('family'),
        ...catalogueProps(speciesFields),
      },
      'A species; `family` is the family slug.',
    ),
    references: [ref('family', 'family_id', 'family')],
    identity: ['slug'],
    unordered: false,
  },
  {
    name: 'supplier',
    file: 'suppliers',
    table: suppliers,
    schema: object({ slug: Slug, ...catalogueProps(supplierFields) }, 'A supplier.'),
    references: [],
    identity: ['slug'],
    unordered: false,
  },
  {
    name: 'cultivar',
    file: 'cultivars',
    table: cultivars,
    schema: object(
      {
        slug: Slug,
        species: slugRef('species'),
        ...catalogueProps(cultivarFields, {
          rootstock_species_id: { field: 'rootstock_species', target: 'species' },
        }),
      },
      'A cultivar; `species` and `rootstock_species` are species slugs.',
    ),
    references: [
      ref('species', 'species_id', 'species'),
      ref('rootstock_species', 'rootstock_species_id', 'species', true),
    ],
    identity: ['slug'],
    unordered: false,
  },
  {
    name: 'cultivar_supplier',
    file: 'cultivar-suppliers',
    table: cultivarSuppliers,
    schema: object(
      {
        cultivar: slugRef('cultivar'),
        supplier: slugRef('supplier'),
        ...catalogueProps(cultivarSupplierFields),
      },
      'A cultivar-supplier link, identified by its cultivar and supplier slugs.',
    ),
    references: [ref('cultivar', 'cultivar_id', 'cultivar'), ref('supplier', 'supplier_id', 'supplier')],
    identity: ['cultivar', 'supplier'],
    unordered: false,
  },
  {
    name: 'companion',
    file: 'companions',
    table: companions,
    schema: object(
      {
        species_a: slugRef('species'),
        species_b: slugRef('species'),
        ...catalogueProps(companionFields),
      },
      'A companion relation, identified by its unordered pair of species slugs.',
    ),
    references: [ref('species_a', 'species_a_id', 'species'), ref('species_b', 'species_b_id', 'species')],
    identity: ['species_a', 'species_b'],
    unordered: true,
  },
];

/** The kinds in dependency order: every kind refers only to kinds before it. */
export const KINDS: readonly Kind[] = kindList;
export const KIND: Readonly<Record<KindName, Kind>> = Object.fromEntries(
  kindList.map((k) => [k.name, k]),
) as Record<KindName, Kind>;

/** The table of a kind that has slugs (every kind a reference can name). */
export function catalogueTable(kind: Kind): CatalogueTable {
  if (!kind.identity.includes('slug')) throw new Error(`${kind.name} records have no slug`);
  return kind.table as CatalogueTable;
}

export function kindOfFile(baseName: string): Kind | undefined {
  return kindList.find((k) => k.file === baseName);
}

/** The identity of a record as one string (an unordered pair is sorted). */
export function identityOf(kind: Kind, record: Record<string, unknown>): string {
  const parts = kind.identity.map((f) => String(record[f]));
  if (kind.unordered) parts.sort();
  return parts.join(' ');
}

/** The record's own columns: every schema property that is not a reference. */
export function ownFields(kind: Kind): string[] {
  const refs = new Set(kind.references.map((r) => r.field));
  return Object.keys(kind.schema.properties).filter((p) => !refs.has(p));
}
