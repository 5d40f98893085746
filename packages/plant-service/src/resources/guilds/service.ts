/**
 * Guild rules. Around a focal species: candidates are species with a beneficial relation to it or
 * with at least one guild function; antagonists of the focal species are never candidates, only
 * listed under `avoid`. Score: a beneficial relation gives 10, plus 3/2/1 for scientific/
 * documented/traditional evidence; each guild function the candidate has adds 1. Candidates
 * rank by score, then scientific name, then id. For a set of species: the pairs inside it, the
 * layers and functions it covers and lacks, and who is not hardy in a given zone.
 *
 * The guild around a species is answered as JSON text, written here in the order the Guild schema
 * declares its members, so its ~60 candidates are serialised once each rather than built into
 * objects and serialised again.
 */
import type { Database } from '../../db/client.js';
import { BadRequest, NotFound } from '../../errors.js';
import type { JsonText } from '../../lib/json-text.js';
import { isUuid } from '../../lib/slug.js';
import { EVIDENCE_BONUS, GUILD_FUNCTIONS, type GuildGroupKey } from '../../schema/guild-functions.js';
import { rangeIncludes, zoneInterval } from '../../schema/hardiness.js';
import { PLANT_LAYERS } from '../../schema/vocabularies.js';
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

function fits(s: SpeciesFacts, filters: CandidateFilters): boolean {
  const zone = filters.hardinessZone === undefined ? null : zoneInterval(filters.hardinessZone);
  if (zone !== null && !rangeIncludes(s.hardiness, zone)) return false;
  return filters.nativeStatus === undefined || s.native_status === filters.nativeStatus;
}

export function guildService({ db }: Database) {
  /** The best `limit` candidates of every group, leaving out `excluded`. */
  async function topByGroup(
    excluded: string[],
    filters: CandidateFilters,
    limit: number,
  ): Promise<Map<GuildGroupKey, Ranked[]>> {
    const top = await repo.topByGroup(db, excluded, filters, limit);
    return new Map([...top].map(([key, facts]) => [key, facts.map((s) => candidate(s))]));
  }

  return {
    async guild(ref: string, q: GuildQuery): Promise<JsonText<Guild>> {
      const filters: CandidateFilters = { hardinessZone: q.hardiness_zone, nativeStatus: q.native_status };
      const country = q.country ?? null;
      const found = await repo.withRelations(db, ref, country);
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
      const top = await topByGroup(excluded, filters, q.limit);
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
