/**
 * Guild rules. Around a focal species: candidates are species with a beneficial relation to it or
 * with at least one guild function; antagonists of the focal species are never candidates, only
 * listed under `avoid`. Score: a beneficial relation gives 10, plus 3/2/1 for scientific/
 * documented/traditional evidence; each guild function the candidate has adds 1. Candidates
 * rank by score, then scientific name, then id. For a set of species: the pairs inside it, the
 * layers and functions it covers and lacks, and who is not hardy in a given zone.
 *
 * The guild around a species is answered as JSON text, written here in the order the Guild schema
 * declares its members: most of it is the same few best candidates of each group whatever the
 * focal species, so each candidate's text is written once per row version and kept (see
 * CandidateTexts), instead of building and serialising ~60 objects for every request.
 */
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.js';
import type { RowVersion } from '../../db/feed-snapshot.js';
import { BadRequest, NotFound } from '../../errors.js';
import type { JsonText } from '../../lib/json-text.js';
import { isUuid } from '../../lib/slug.js';
import { EVIDENCE_BONUS, GUILD_FUNCTIONS, type GuildGroupKey } from '../../schema/guild-functions.js';
import { rangeIncludes, zoneInterval } from '../../schema/hardiness.js';
import { PLANT_LAYERS } from '../../schema/vocabularies.js';
import type { GuildPicks, SpeciesListIndex } from '../species/list-index.js';
import {
  type CandidateFilters,
  type Relation,
  guildRepository as repo,
  type SpeciesFacts,
} from './repository.js';
import type {
  Guild,
  GuildAvoid,
  GuildCheck,
  GuildCheckBody,
  GuildExcluded,
  GuildMember,
  GuildPair,
  GuildQuery,
} from './schemas.js';

/** Score of a beneficial relation before its evidence bonus: above any species' function count (at most 6). */
const COMPANION_SCORE = 10;

function member(s: SpeciesFacts): GuildMember {
  const {
    id,
    slug,
    name_scientific,
    name_en,
    name_de,
    plant_layer,
    primary_image_key,
    legal_status,
    hazards,
  } = s;
  return {
    id,
    slug,
    name_scientific,
    name_en,
    name_de,
    plant_layer,
    primary_image_key,
    legal_status,
    hazards,
  };
}

type LegalStatus = NonNullable<GuildMember['legal_status']>[number];

/**
 * The statuses of `s` that keep it out of a guild: on the EU's Union list of invasive species
 * (keeping, growing and selling them is prohibited in every member state), and banned or banned from
 * sale in `country`. Protection is no bar: planting a protected species is not forbidden.
 */
function legalBars(s: SpeciesFacts, country: string | null): LegalStatus[] {
  return (s.legal_status ?? []).filter(
    (status) =>
      (status.kind === 'union_list_invasive' && status.jurisdiction === 'EU') ||
      (country !== null &&
        status.jurisdiction === country &&
        (status.kind === 'banned' || status.kind === 'sale_banned')),
  );
}

/** A candidate as the answer lists it: what it ranks by, and its JSON text (a GuildCandidate). */
interface Ranked {
  score: number;
  name_scientific: string;
  id: string;
  json: string;
}

function byScoreThenName(x: Ranked, y: Ranked): number {
  if (x.score !== y.score) return y.score - x.score;
  if (x.name_scientific !== y.name_scientific) return x.name_scientific < y.name_scientific ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

function byName(x: GuildMember, y: GuildMember): number {
  if (x.name_scientific !== y.name_scientific) return x.name_scientific < y.name_scientific ? -1 : 1;
  return x.id < y.id ? -1 : 1;
}

/** The species `s` as a candidate, with its beneficial relation to the focal species if it has one. */
function candidate(s: SpeciesFacts, relation?: Relation): Ranked {
  const companionScore = relation
    ? COMPANION_SCORE + (relation.evidence ? EVIDENCE_BONUS[relation.evidence] : 0)
    : 0;
  const score = companionScore + s.functions.length;
  // Members in the order of the GuildCandidate schema.
  const json = JSON.stringify({
    id: s.id,
    slug: s.slug,
    name_scientific: s.name_scientific,
    name_en: s.name_en,
    name_de: s.name_de,
    plant_layer: s.plant_layer,
    primary_image_key: s.primary_image_key,
    legal_status: s.legal_status,
    hazards: s.hazards,
    score,
    reasons: {
      companion: relation
        ? {
            companion_id: relation.companion_id,
            relationship: 'beneficial',
            mechanism: relation.mechanism,
            evidence: relation.evidence,
          }
        : null,
      functions: s.functions,
    },
  });
  return { score, name_scientific: s.name_scientific, id: s.id, json };
}

/**
 * How many candidates per group are picked beyond `limit` before the focal species' relations are
 * known: its related species are left out afterwards, and a few are nearly always enough to
 * replace them.
 */
const SLACK = 2;

/** Candidate texts kept, at most; past it the least recently used is dropped. */
const KEPT_CANDIDATES = 4_096;

/**
 * The text of candidates without a relation to the focal species, by id, each for the row version
 * it was written from. A text is used only for the row version the database has now (the caller
 * reads the versions in the same statement that confirms the picks), so a write to a species makes
 * its kept text unused, never wrong.
 */
function candidateTexts() {
  const kept = new LRUCache<string, { xmin: string; ranked: Ranked }>({ max: KEPT_CANDIDATES });
  return {
    get(id: string, xmin: string): Ranked | undefined {
      const entry = kept.get(id);
      return entry?.xmin === xmin ? entry.ranked : undefined;
    },
    set(id: string, xmin: string, ranked: Ranked): void {
      kept.set(id, { xmin, ranked });
    },
  };
}

function fits(s: SpeciesFacts, filters: CandidateFilters): boolean {
  const zone = filters.hardinessZone === undefined ? null : zoneInterval(filters.hardinessZone);
  if (zone !== null && !rangeIncludes(s.hardiness, zone)) return false;
  return filters.nativeStatus === undefined || s.native_status === filters.nativeStatus;
}

/**
 * `index`, when given, picks the candidates of each group from memory while it is current (see
 * species/list-index.ts); their row versions are read, and the picks used only if every record is
 * still the row version the index picked; facts are read only for picks without a kept text. The
 * database picks them otherwise.
 */
export function guildService({ db }: Database, index?: SpeciesListIndex) {
  const texts = candidateTexts();

  /**
   * The index's best `depth` candidates per group leaving out `excluded`; undefined when the index
   * cannot answer (not current, or a zone it cannot read).
   */
  function indexPicks(excluded: string[], filters: CandidateFilters, depth: number): GuildPicks | undefined {
    const zone = filters.hardinessZone === undefined ? null : zoneInterval(filters.hardinessZone);
    if (filters.hardinessZone !== undefined && zone === null) return undefined;
    return index?.guildCandidates({ excluded, zone, nativeStatus: filters.nativeStatus ?? null }, depth);
  }

  /**
   * The candidates of `groups` as ranked texts, given the row versions the database has now of
   * (at least) every id in them: a kept text is used for its version, the facts of the others are
   * read and must be of that version too. Undefined when one is not (the database answers then).
   */
  async function rankedGroups(
    groups: Map<GuildGroupKey, string[]>,
    versions: readonly RowVersion[],
  ): Promise<Map<GuildGroupKey, Ranked[]> | undefined> {
    const needed = new Set([...groups.values()].flat());
    const byId = new Map<string, Ranked>();
    const unknown = new Map<string, string>();
    for (const { id, xmin } of versions) {
      if (!needed.has(id)) continue;
      const ranked = texts.get(id, xmin);
      if (ranked === undefined) unknown.set(id, xmin);
      else byId.set(id, ranked);
    }
    if (unknown.size > 0) {
      for (const row of await repo.factsByIds(db, [...unknown.keys()])) {
        if (row.xmin !== unknown.get(row.id)) return undefined;
        const ranked = candidate(row);
        texts.set(row.id, row.xmin, ranked);
        byId.set(row.id, ranked);
      }
    }
    if (byId.size !== needed.size) return undefined;
    return new Map([...groups].map(([key, ids]) => [key, ids.map((id) => byId.get(id) as Ranked)]));
  }

  /**
   * The best `limit` candidates of every group, leaving out `excluded`. `early`, when given, are
   * picks made before the exclusions were known, `SLACK` deeper than `limit`, with the versions
   * read of them: they serve if they still hold and every group keeps `limit` after the
   * exclusions (or held all its group had). Otherwise the index picks again with the exclusions,
   * and when it cannot answer, or its picks no longer hold, the database picks.
   */
  async function topByGroup(
    excluded: string[],
    filters: CandidateFilters,
    limit: number,
    early?: { picks: GuildPicks; versions: readonly RowVersion[] },
  ): Promise<Map<GuildGroupKey, Ranked[]>> {
    if (early?.picks.holds(early.versions)) {
      const skip = new Set(excluded);
      const groups = new Map<GuildGroupKey, string[]>();
      for (const [key, ids] of early.picks.groups) {
        const kept = ids.filter((id) => !skip.has(id));
        // A walk that stopped at its bound may have had more members past it to replace those left out.
        if (kept.length < limit && ids.length === limit + SLACK) break;
        groups.set(key, kept.slice(0, limit));
      }
      if (groups.size === early.picks.groups.size) {
        const ranked = await rankedGroups(groups, early.versions);
        if (ranked !== undefined) return ranked;
      }
    }
    const picks = indexPicks(excluded, filters, limit);
    if (picks !== undefined) {
      const versions = await repo.versionsByIds(db, picks.ids);
      if (picks.holds(versions)) {
        const ranked = await rankedGroups(picks.groups, versions);
        if (ranked !== undefined) return ranked;
      }
    }
    const top = await repo.topByGroup(db, excluded, filters, limit);
    return new Map([...top].map(([key, facts]) => [key, facts.map((s) => candidate(s))]));
  }

  return {
    async guild(ref: string, q: GuildQuery): Promise<JsonText<Guild>> {
      const filters: CandidateFilters = { hardinessZone: q.hardiness_zone, nativeStatus: q.native_status };
      // Candidates picked before the species and its relations are read, so that one statement
      // reads those and the picks' row versions together.
      const picks = indexPicks([], filters, q.limit + SLACK);
      const country = q.country ?? null;
      const found = await repo.withRelations(db, ref, picks?.ids ?? [], country);
      if (found === undefined) throw new NotFound(`species '${ref}' not found`);
      const { focal, barred } = found;
      const barredIds = new Set(barred.map((s) => s.id));
      const relations = found.relations.filter(({ other }) => !barredIds.has(other.id));
      // Antagonists are listed under avoid whatever their legal status.
      const avoid: GuildAvoid[] = found.relations
        .filter(({ relation }) => relation.relationship === 'antagonistic')
        .map(({ relation, other }) => ({
          ...member(other),
          companion_id: relation.companion_id,
          mechanism: relation.mechanism,
          evidence: relation.evidence,
        }))
        .sort(byName);
      const companions = relations
        .filter(({ relation, other }) => relation.relationship === 'beneficial' && fits(other, filters))
        .map(({ relation, other }) => ({ facts: other, scored: candidate(other, relation) }));
      const antagonists = new Set(avoid.map((a) => a.id));
      const beneficial = new Set(
        found.relations
          .filter(({ relation }) => relation.relationship === 'beneficial')
          .map(({ other }) => other.id),
      );
      const lawExcluded: GuildExcluded[] = barred
        .filter(
          (s) =>
            s.id !== focal.id &&
            !antagonists.has(s.id) &&
            (s.functions.length > 0 || beneficial.has(s.id)) &&
            fits(s, filters),
        )
        .map((s) => ({ ...member(s), reasons: legalBars(s, country) }))
        .sort(byName);
      // Antagonists never come back; beneficial companions are merged in with their relation; the
      // law's exclusions never come back either.
      const excluded = [
        focal.id,
        ...relations
          .filter(({ relation }) => relation.relationship !== 'neutral')
          .map(({ other }) => other.id),
        ...barredIds,
      ];
      const top = await topByGroup(excluded, filters, q.limit, picks && { picks, versions: found.versions });
      // One group's members as a JSON object member: `"name":[candidate,…]`.
      const group = (name: string, key: GuildGroupKey, related: typeof companions) => {
        const ranked = [...related.map((c) => c.scored), ...(top.get(key) ?? [])]
          .sort(byScoreThenName)
          .slice(0, q.limit);
        return `${JSON.stringify(name)}:[${ranked.map((r) => r.json).join(',')}]`;
      };
      const functions = GUILD_FUNCTIONS.map((fn) =>
        group(
          fn,
          `function:${fn}`,
          companions.filter((c) => c.facts.functions.includes(fn)),
        ),
      );
      const layers = PLANT_LAYERS.map((layer) =>
        group(
          layer,
          `layer:${layer}`,
          companions.filter((c) => c.facts.plant_layer === layer),
        ),
      );
      // Members in the order of the Guild schema.
      return (
        `{"species":${JSON.stringify(member(focal))},"hardiness_zone":${JSON.stringify(q.hardiness_zone ?? null)},` +
        `"country":${JSON.stringify(country)},"functions":{${functions.join(',')}},"layers":{${layers.join(',')}},` +
        `"avoid":${JSON.stringify(avoid)},"excluded":${JSON.stringify(lawExcluded)}}`
      );
    },

    async check(body: GuildCheckBody): Promise<GuildCheck> {
      const found = await repo.findSpecies(db, body.species);
      const byId = new Map(found.map((s) => [s.id, s]));
      const bySlug = new Map(found.map((s) => [s.slug, s]));
      const members = new Map<string, SpeciesFacts>();
      body.species.forEach((ref, i) => {
        const s = isUuid(ref) ? byId.get(ref.toLowerCase()) : bySlug.get(ref);
        if (!s) throw new BadRequest(`species[${i}]: no species '${ref}'`, { field: `species[${i}]` });
        if (!members.has(s.id)) members.set(s.id, s);
      });
      const set = [...members.values()];
      const relations = await repo.relationsAmong(db, [...members.keys()]);
      const pair = (r: Relation): GuildPair => ({
        companion_id: r.companion_id,
        species_a: member(members.get(r.a) as SpeciesFacts),
        species_b: member(members.get(r.b) as SpeciesFacts),
        mechanism: r.mechanism,
        evidence: r.evidence,
      });
      const layers: Record<string, GuildMember[]> = {};
      for (const layer of PLANT_LAYERS) {
        const inLayer = set.filter((s) => s.plant_layer === layer).map(member);
        if (inLayer.length > 0) layers[layer] = inLayer;
      }
      const roles: Record<string, GuildMember[]> = {};
      for (const fn of GUILD_FUNCTIONS) {
        const withRole = set.filter((s) => s.functions.includes(fn)).map(member);
        if (withRole.length > 0) roles[fn] = withRole;
      }
      const zone = body.hardiness_zone === undefined ? null : zoneInterval(body.hardiness_zone);
      return {
        species: set.map(member),
        conflicts: relations.filter((r) => r.relationship === 'antagonistic').map(pair),
        synergies: relations.filter((r) => r.relationship === 'beneficial').map(pair),
        layers,
        missing_layers: PLANT_LAYERS.filter((layer) => !(layer in layers)),
        roles,
        missing_roles: GUILD_FUNCTIONS.filter((fn) => !(fn in roles)),
        outside_zone:
          zone === null
            ? []
            : set.filter((s) => s.hardiness !== null && !rangeIncludes(s.hardiness, zone)).map(member),
        zone_unknown: zone === null ? [] : set.filter((s) => s.hardiness === null).map(member),
        legal_status: set.filter((s) => (s.legal_status ?? []).length > 0).map(member),
        hazards: set.filter((s) => (s.hazards ?? []).length > 0).map(member),
      };
    },
  };
}
