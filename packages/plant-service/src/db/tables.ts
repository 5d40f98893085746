/**
 * The database schema, in code. Species and cultivar columns come from their field catalogues;
 * migrations are generated from this file by drizzle-kit (`npm run db:generate`) and committed.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  type PgColumn,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companionFields } from '../schema/companions.js';
import { cultivarFields } from '../schema/cultivar-fields.js';
import { cultivarSupplierFields } from '../schema/cultivars.js';
import { familyFields } from '../schema/families.js';
import { columns, type FieldDef, type Fields, type SearchWeight } from '../schema/fields.js';
import { functionPredicate, GUILD_FUNCTIONS, guildScoreSql } from '../schema/guild-functions.js';
import { halfZoneMaxSql, halfZoneMinSql } from '../schema/hardiness.js';
import { createdField, identityFields, idField, timestampFields } from '../schema/identity.js';
import { SPECIES_LIST_FILTERS, speciesFields } from '../schema/species-fields.js';
import { supplierFields } from '../schema/suppliers.js';
import type { EntityType } from '../schema/vocabularies.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const id = () => uuid().primaryKey().defaultRandom();
const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * The full-text document of a record, from the search weights its fields declare: the names
 * (weight A) and the texts (weight C) as column expressions. Within a weight the untranslated field
 * comes first, then English, then German, then name lists, which `plant_join` (migration 0004)
 * joins into one text.
 */
function searchDocument(fields: Fields): { names: string[]; texts: string[] } {
  const entries = Object.entries(fields);
  const isList = (f: FieldDef) => (f.schema as { type?: unknown }).type === 'array';
  const rank = (name: string, f: FieldDef) =>
    isList(f) ? 3 : name.endsWith('_de') ? 2 : name.endsWith('_en') ? 1 : 0;
  const weighted = (weight: SearchWeight) =>
    entries
      .filter(([, f]) => f.search === weight)
      .sort(([a, fa], [b, fb]) => rank(a, fa) - rank(b, fb))
      .map(([name, f]) => (isList(f) ? `plant_join(${name})` : name));
  return { names: weighted('A'), texts: weighted('C') };
}

/**
 * Full-text document: names weigh A, texts C. `plant_names` and `plant_fold` (migration 0000) fold
 * case, accents and umlauts so "mohre" and "moehre" both find "Möhre".
 */
function searchVector(names: string[], texts: string[]): SQL {
  const part = (cols: string[], fn: string, weight: SearchWeight) =>
    cols.map((c) => `setweight(to_tsvector('simple', ${fn}(coalesce(${c}, ''))), '${weight}')`);
  return sql.raw([...part(names, 'plant_names', 'A'), ...part(texts, 'plant_fold', 'C')].join(' || '));
}

/**
 * The generated search columns of a catalogue table: the whole document; the names alone as a
 * vector (the search's first phase looks only there, so a short prefix never ranks description
 * matches); the names folded into one text, for trigram matching of word parts inside compounds
 * ("apfel" in "Kulturapfel") and typos ("tomatoe").
 */
function searchColumns(fields: Fields) {
  const { names, texts } = searchDocument(fields);
  return {
    search: tsvector().generatedAlwaysAs(searchVector(names, texts)),
    names: tsvector().generatedAlwaysAs(searchVector(names, [])),
    // `||` and coalesce, not concat_ws: generated columns need immutable expressions.
    names_text: text().generatedAlwaysAs(
      sql.raw(`plant_names(${names.map((n) => `coalesce(${n}, '')`).join(" || ' ' || ")})`),
    ),
  };
}

const trigramIndex = (name: string, column: PgColumn) =>
  index(name).using('gin', sql`${column} gin_trgm_ops`);

export const families = pgTable(
  'families',
  {
    ...columns(identityFields),
    ...columns(familyFields),
    ...columns(timestampFields),
    ...searchColumns(familyFields),
  },
  (t) => [
    index('families_order_idx').on(t.name_scientific, t.id),
    index('families_search_idx').using('gin', t.search),
    index('families_names_idx').using('gin', t.names),
    trigramIndex('families_names_trgm_idx', t.names_text),
  ],
);

/** The species list's filter columns (besides family), in the order the list indexes carry them. */
const listFilters = (t: Record<(typeof SPECIES_LIST_FILTERS)[number], PgColumn>) =>
  SPECIES_LIST_FILTERS.map((c) => t[c]);

export const species = pgTable(
  'species',
  {
    ...columns(identityFields),
    family_id: uuid()
      .notNull()
      .references(() => families.id),
    ...columns(speciesFields),
    ...columns(timestampFields),
    ...searchColumns(speciesFields),
    // Internal, derived columns (never in a response): the hardiness range as half-zones, so
    // the zone filter is an indexable comparison, and how many guild functions the species has.
    hardiness_min: smallint().generatedAlwaysAs(halfZoneMinSql('hardiness_zone_usda')),
    hardiness_max: smallint().generatedAlwaysAs(halfZoneMaxSql('hardiness_zone_usda')),
    guild_score: smallint().generatedAlwaysAs(guildScoreSql()),
  },
  (t) => [
    // Lists page through these narrow indexes (order first, then every list filter as trailing
    // key columns): filters, counts and the skipped rows of deep pages are answered from the
    // index alone, and whole rows are read only for the page itself.
    index('species_list_idx').on(t.name_scientific, t.id, ...listFilters(t)),
    index('species_family_list_idx').on(t.family_id, t.name_scientific, t.id, ...listFilters(t)),
    index('species_search_idx').using('gin', t.search),
    // The zone filter, and the columns the usual filters and the facets read after it, so a count
    // or facet query over a zone can be answered from the index alone.
    index('species_hardiness_idx').on(
      t.hardiness_min,
      t.hardiness_max,
      t.plant_layer,
      t.native_status,
      t.drought_tolerance,
      t.nitrogen_fixer,
      t.family_id,
    ),
    // The best guild candidates of each function and of each layer, read in index order.
    ...GUILD_FUNCTIONS.map((fn) =>
      index(`species_guild_${fn}_idx`)
        .on(t.guild_score.desc(), t.name_scientific, t.id)
        .where(functionPredicate(fn)),
    ),
    index('species_guild_layer_idx')
      .on(t.plant_layer, t.guild_score.desc(), t.name_scientific, t.id)
      .where(sql`${t.guild_score} > 0`),
    index('species_names_idx').using('gin', t.names),
    trigramIndex('species_names_trgm_idx', t.names_text),
    // The planner filters on list fields: a light the list holds, an item of edible parts (the
    // json list read as jsonb, as the filter writes it).
    index('species_light_idx').using('gin', t.light),
    index('species_edible_parts_idx').using('gin', sql`(${t.edible_parts}::jsonb) jsonb_path_ops`),
    // The species the law keeps out of guilds, looked up on every guild request.
    index('species_legal_status_idx').using('gin', sql`(${t.legal_status}::jsonb) jsonb_path_ops`),
  ],
);

const CALENDAR_ARRAYS = (
  ['indoor_sowing', 'direct_sowing', 'transplanting', 'glasshouse', 'harvesting'] as const
).flatMap((activity) => [`${activity}_months`, `${activity}_weeks`] as const);

export const cultivars = pgTable(
  'cultivars',
  {
    ...columns(identityFields),
    species_id: uuid()
      .notNull()
      .references(() => species.id),
    ...columns(cultivarFields),
    ...columns(timestampFields),
    ...searchColumns(cultivarFields),
  },
  (t) => [
    index('cultivars_order_idx').on(t.name, t.id),
    index('cultivars_species_order_idx').on(t.species_id, t.name, t.id),
    index('cultivars_search_idx').using('gin', t.search),
    // The planting calendar's month and week tests (`@>`, `&&`) on each activity's arrays.
    ...CALENDAR_ARRAYS.map((name) => index(`cultivars_${name}_idx`).using('gin', t[name])),
    index('cultivars_names_idx').using('gin', t.names),
    trigramIndex('cultivars_names_trgm_idx', t.names_text),
  ],
);

/**
 * Every word of every family, species and cultivar name, one row each, for type-ahead search: a
 * btree range over `word` finds the words a prefix starts, in alphabetical order, and stops after
 * a bounded number of them however common the prefix is (a GIN prefix query reads every match).
 * Each row carries its record's whole names vector, so the other terms of a query are checked on
 * the same row. Derived, never written by the service: triggers (migration 0009) keep it equal to
 * the words of each record's `names`.
 */
export const nameWords = pgTable(
  'name_words',
  {
    word: text().notNull(),
    entity_type: text().$type<EntityType>().notNull(),
    entity_id: uuid().notNull(),
    /** The record's sort name: the scientific name, or a cultivar's name. */
    name: text().notNull(),
    names: tsvector().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entity_type, t.entity_id, t.word] }),
    // Pattern operators compare bytes, so the range of a prefix is one contiguous stretch. The
    // migration also INCLUDEs every other column (not expressible here): the scan is index-only.
    index('name_words_word_idx').on(t.word.op('text_pattern_ops')),
  ],
);

export const suppliers = pgTable(
  'suppliers',
  {
    ...columns(identityFields),
    ...columns(supplierFields),
    ...columns(timestampFields),
  },
  (t) => [index('suppliers_order_idx').on(t.name, t.id)],
);

export const cultivarSuppliers = pgTable(
  'cultivar_suppliers',
  {
    ...columns(idField),
    cultivar_id: uuid()
      .notNull()
      .references(() => cultivars.id, { onDelete: 'cascade' }),
    supplier_id: uuid()
      .notNull()
      .references(() => suppliers.id, { onDelete: 'cascade' }),
    ...columns(cultivarSupplierFields),
    ...columns(createdField),
  },
  (t) => [
    uniqueIndex('cultivar_suppliers_pair_idx').on(t.cultivar_id, t.supplier_id),
    index('cultivar_suppliers_supplier_idx').on(t.supplier_id),
  ],
);

export const companions = pgTable(
  'companions',
  {
    ...columns(idField),
    species_a_id: uuid()
      .notNull()
      .references(() => species.id, { onDelete: 'cascade' }),
    species_b_id: uuid()
      .notNull()
      .references(() => species.id, { onDelete: 'cascade' }),
    ...columns(companionFields),
    ...columns(createdField),
  },
  (t) => [
    // A pair is stored once, whichever order it was given in.
    uniqueIndex('companions_pair_idx').on(
      sql`least(${t.species_a_id}, ${t.species_b_id})`,
      sql`greatest(${t.species_a_id}, ${t.species_b_id})`,
    ),
    index('companions_b_idx').on(t.species_b_id),
    // With companions_b_idx: a species' relations from either side without reading every relation.
    index('companions_a_idx').on(t.species_a_id),
    check('companions_distinct_species', sql`${t.species_a_id} <> ${t.species_b_id}`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    issuer: text().notNull(),
    subject: text().notNull(),
    email: text().notNull(),
    name: text(),
    nickname: text(),
    is_admin: boolean().notNull().default(false),
    is_editor: boolean().notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    last_login_at: timestamp({ withTimezone: true, mode: 'date' }),
    /** When the provider last confirmed is_admin and is_editor (a sign-in); they lapse after ROLE_REFRESH_SECONDS. */
    roles_checked_at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Set by an administrator: the user cannot sign in, and has no sessions or tokens. */
    disabled_at: timestamp({ withTimezone: true, mode: 'date' }),
    disabled_by: uuid().references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('users_identity_idx').on(t.issuer, t.subject)],
);

/** Server-side sessions. The cookie holds a random id; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id_hash: text().primaryKey(),
    user_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    last_seen_at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expires_at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id), index('sessions_expiry_idx').on(t.expires_at)],
);

/** Images attached to a family, species or cultivar; the bytes live in the object store. */
export const images = pgTable(
  'images',
  {
    id: id(),
    entity_type: text().$type<EntityType>().notNull(),
    entity_id: uuid().notNull(),
    store_key: text().notNull().unique(),
    content_type: text().notNull(),
    byte_size: integer().notNull(),
    width: integer(),
    height: integer(),
    caption: text(),
    source_url: text(),
    license: text(),
    is_primary: boolean().notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [
    index('images_entity_idx').on(t.entity_type, t.entity_id, t.created_at),
    // At most one primary image per entity; the service keeps exactly one while any exist.
    uniqueIndex('images_one_primary_idx').on(t.entity_type, t.entity_id).where(sql`${t.is_primary}`),
    check('images_entity_type', sql`${t.entity_type} in ('family', 'species', 'cultivar')`),
  ],
);

/** Pending OIDC logins: state, nonce and PKCE verifier kept server-side until the callback. */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    state_hash: text().primaryKey(),
    nonce: text().notNull(),
    code_verifier: text().notNull(),
    return_to: text(),
    created_at: createdAt(),
    expires_at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('oidc_logins_expiry_idx').on(t.expires_at)],
);

/**
 * Personal API tokens. The secret is shown once at creation; only its SHA-256 is stored. A token
 * carries no roles of its own: each use reads its owner's current ones.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    user_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    secret_hash: text().notNull(),
    created_at: createdAt(),
    last_used_at: timestamp({ withTimezone: true, mode: 'date' }),
    expires_at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('api_tokens_user_idx').on(t.user_id, t.created_at)],
);

/**
 * The change log: one entry per created, updated or deleted catalogue row, written by row triggers
 * (migration 0014) in the writer's own transaction, whoever writes. `position` is the entry's place
 * in commit order: null while its transaction runs, assigned at commit under the counter's row lock
 * (see docs/history.md). `fields` holds every changed field as `{ old, new }`.
 */
export const changes = pgTable(
  'changes',
  {
    /** Insertion order within a transaction; internal (positions are what clients see). */
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    position: bigint({ mode: 'number' }),
    txid: bigint({ mode: 'number' }).notNull().default(sql`(pg_current_xact_id()::text::bigint)`),
    committed_at: timestamp({ withTimezone: true, mode: 'date' }),
    kind: text().notNull(),
    record_id: uuid().notNull(),
    slug: text(),
    op: text().$type<'create' | 'update' | 'delete'>().notNull(),
    fields: jsonb().$type<Record<string, { old: unknown; new: unknown }>>().notNull(),
    actor_kind: text().$type<'user' | 'token' | 'import' | 'database'>().notNull(),
    actor_user_id: uuid(),
    actor_token_id: uuid(),
    actor_role: text().notNull(),
    reason: text(),
    reverts: bigint({ mode: 'number' }),
  },
  (t) => [
    uniqueIndex('changes_position_idx').on(t.position),
    index('changes_record_idx').on(t.record_id, t.position),
    index('changes_pending_idx').on(t.txid).where(sql`${t.position} is null`),
    index('changes_committed_idx').on(t.committed_at),
    check('changes_op', sql`${t.op} in ('create', 'update', 'delete')`),
    check('changes_actor_kind', sql`${t.actor_kind} in ('user', 'token', 'import', 'database')`),
  ],
);

/**
 * One row: the last position handed out, and the last one pruned (a feed reader asking from
 * before it has missed entries). Its row lock, taken at commit, orders the positions.
 */
export const changeCounter = pgTable(
  'change_counter',
  {
    only_row: boolean().primaryKey().default(true),
    last_position: bigint({ mode: 'number' }).notNull().default(0),
    pruned_through: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [check('change_counter_one_row', sql`${t.only_row}`)],
);

/**
 * Columns the change log leaves out of every entry, in any table: bookkeeping and text derived
 * from the other columns. Generated columns are left out without being named here.
 */
export const changeIgnoredColumns = pgTable('change_ignored_columns', {
  column_name: text().primaryKey(),
});
