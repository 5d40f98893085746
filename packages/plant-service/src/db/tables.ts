/**
 * The database schema, in code. Species and cultivar columns come from their field catalogues;
 * migrations are generated from this file by drizzle-kit (`npm run db:generate`) and committed.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cultivarFields } from '../resources/cultivars/fields.js';
import { functionPredicate, GUILD_FUNCTIONS, guildScoreSql } from '../resources/guilds/functions.js';
import { speciesFields } from '../resources/species/fields.js';
import { columns } from '../schema/fields.js';
import { EVIDENCE_LEVELS } from '../schema/vocabularies.js';
import { halfZoneMaxSql, halfZoneMinSql } from '../schema/hardiness.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const id = () => uuid().primaryKey().defaultRandom();
const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * Full-text document: names weigh A, descriptions C. `plant_names` and `plant_fold` (migration
 * 0000) fold case, accents and umlauts so "mohre" and "moehre" both find "Möhre".
 */
function searchVector(names: string[], texts: string[]): SQL {
  const part = (cols: string[], fn: string, weight: string) =>
    cols.map((c) => `setweight(to_tsvector('simple', ${fn}(coalesce(${c}, ''))), '${weight}')`);
  return sql.raw([...part(names, 'plant_names', 'A'), ...part(texts, 'plant_fold', 'C')].join(' || '));
}

export const families = pgTable(
  'families',
  {
    id: id(),
    slug: text().notNull().unique(),
    name_scientific: text().notNull(),
    name_en: text(),
    name_de: text(),
    description: text(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search: tsvector().generatedAlwaysAs(
      searchVector(['name_scientific', 'name_en', 'name_de'], ['description']),
    ),
  },
  (t) => [
    index('families_order_idx').on(t.name_scientific, t.id),
    index('families_search_idx').using('gin', t.search),
  ],
);

export const species = pgTable(
  'species',
  {
    id: id(),
    slug: text().notNull().unique(),
    family_id: uuid()
      .notNull()
      .references(() => families.id),
    name_scientific: text().notNull(),
    ...columns(speciesFields),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search: tsvector().generatedAlwaysAs(
      searchVector(
        ['name_scientific', 'name_en', 'name_de'],
        ['description', 'description_en', 'description_de'],
      ),
    ),
    // Internal, derived columns (never in a response): the hardiness range as half-zones, so
    // the zone filter is an indexable comparison, and how many guild functions the species has.
    hardiness_min: smallint().generatedAlwaysAs(halfZoneMinSql('hardiness_zone_usda')),
    hardiness_max: smallint().generatedAlwaysAs(halfZoneMaxSql('hardiness_zone_usda')),
    guild_score: smallint().generatedAlwaysAs(guildScoreSql()),
  },
  (t) => [
    index('species_order_idx').on(t.name_scientific, t.id),
    index('species_family_order_idx').on(t.family_id, t.name_scientific, t.id),
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
  ],
);

const CALENDAR_ARRAYS = (
  ['indoor_sowing', 'direct_sowing', 'transplanting', 'glasshouse', 'harvesting'] as const
).flatMap((activity) => [`${activity}_months`, `${activity}_weeks`] as const);

export const cultivars = pgTable(
  'cultivars',
  {
    id: id(),
    slug: text().notNull().unique(),
    species_id: uuid()
      .notNull()
      .references(() => species.id),
    name: text().notNull(),
    is_organic: boolean().notNull().default(false),
    perennial: boolean().notNull().default(false),
    ...columns(cultivarFields),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search: tsvector().generatedAlwaysAs(
      searchVector(['name', 'name_en', 'name_de'], ['description', 'description_en', 'description_de']),
    ),
  },
  (t) => [
    index('cultivars_order_idx').on(t.name, t.id),
    index('cultivars_species_order_idx').on(t.species_id, t.name, t.id),
    index('cultivars_search_idx').using('gin', t.search),
    // The planting calendar's month and week tests (`@>`, `&&`) on each activity's arrays.
    ...CALENDAR_ARRAYS.map((name) => index(`cultivars_${name}_idx`).using('gin', t[name])),
  ],
);

export const suppliers = pgTable(
  'suppliers',
  {
    id: id(),
    slug: text().notNull().unique(),
    name: text().notNull(),
    url: text(),
    is_organic: boolean().notNull().default(false),
    is_biodynamic: boolean().notNull().default(false),
    country: text(),
    notes: text(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('suppliers_order_idx').on(t.name, t.id)],
);

export const cultivarSuppliers = pgTable(
  'cultivar_suppliers',
  {
    id: id(),
    cultivar_id: uuid()
      .notNull()
      .references(() => cultivars.id, { onDelete: 'cascade' }),
    supplier_id: uuid()
      .notNull()
      .references(() => suppliers.id, { onDelete: 'cascade' }),
    article_number: text(),
    product_url: text(),
    price_eur: numeric({ precision: 12, scale: 2, mode: 'number' }),
    pack_size: doublePrecision(),
    pack_unit: text(),
    last_checked_at: timestamp({ withTimezone: true, mode: 'date' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('cultivar_suppliers_pair_idx').on(t.cultivar_id, t.supplier_id),
    index('cultivar_suppliers_supplier_idx').on(t.supplier_id),
  ],
);

export const companions = pgTable(
  'companions',
  {
    id: id(),
    species_a_id: uuid()
      .notNull()
      .references(() => species.id, { onDelete: 'cascade' }),
    species_b_id: uuid()
      .notNull()
      .references(() => species.id, { onDelete: 'cascade' }),
    relationship: text().notNull(),
    evidence: text({ enum: EVIDENCE_LEVELS }),
    mechanism: text(),
    source_url: text(),
    created_at: createdAt(),
  },
  (t) => [
    // A pair is stored once, whichever order it was given in (issue 2).
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
    entity_type: text().notNull(),
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
    // At most one primary image per entity (issue 4); the service keeps exactly one while any exist.
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
    expires_at: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_tokens_user_idx').on(t.user_id, t.created_at)],
);
