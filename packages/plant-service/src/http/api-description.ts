/**
 * The OpenAPI description's prose: the conventions, and every decision this service takes about
 * behaviour a client cannot see from the schemas alone.
 */
import { EVIDENCE_BONUS, FUNCTION_RULES, GUILD_FUNCTIONS } from '../schema/guild-functions.js';
import { FACETS, PLANNER_FACETS } from '../schema/species-facets.js';
import {
  EDIBLE_PARTS,
  EVIDENCE_LEVELS,
  FLOWER_SEXES,
  HAZARD_KINDS,
  LEAF_RETENTIONS,
  LEGAL_STATUS_KINDS,
  LIFE_CYCLES,
  LIGHT_LEVELS,
  NATIVE_STATUSES,
  NUTRIENT_DEMANDS,
  PLANT_LAYERS,
  RELATIONSHIPS,
  SUCCESSION_STAGES,
  TOLERANCE_LEVELS,
} from '../schema/vocabularies.js';

export const API_DESCRIPTION = `
Plant reference data for permaculture and agroforestry planning: botanical families, species,
cultivars, seed suppliers with prices, companion planting relations and full-text search.
Reads are public; writes need a session (cookie \`id\`) created by the OIDC login, or a personal
API token sent as \`Authorization: Bearer <token>\`.

## Conventions
- \`{ref}\` in a path is a record's slug or its uuid.
- Every successful response is 200, including creates and deletes. \`/\` (where login and logout land)
  redirects to \`/api/docs\`.
- Errors are \`{"error": "..."}\`; validation errors name the field or parameter
  (\`{"error": "ph_min: must be <= 14", "field": "ph_min", "in": "body"}\`).

## Decisions
- **Slugs.** Derived from \`name_scientific\` (families, species), \`name\` (suppliers), and the species
  slug plus the cultivar name (cultivars): lowercase ASCII, umlauts transliterated (ä→ae, ö→oe, ü→ue,
  ß→ss), other accents stripped, every run of other characters one hyphen. A taken slug gets the first
  free numeric suffix (\`-2\`, \`-3\`, ...). A slug never changes, even when the name does.
- **Update (PUT).** Omitted fields stay unchanged; a field sent as \`null\` is cleared; required fields
  (\`name_scientific\`, \`name\`, \`family_id\`, \`species_id\`) cannot be null. \`updated_at\` changes on every update.
- **Order of lists.** By scientific name (families, species) or name (cultivars, suppliers), then id.
  With \`search\`, by relevance first.
- **Paging and totals.** \`total\` is always exact, counted over the filtered set. Pages are numbered
  (\`page\`, \`per_page\`); there is no separate cursor parameter.
- **Search.** \`/api/v1/search\` looks at names first, then word parts of names, then descriptions,
  and falls back to similar names for typos; see the operation for the ranking rules.
  \`other_names\` (synonyms and further common names) are searched like names.
- **Deleting referenced records.** A family that still has species, or a species that still has
  cultivars: 409 naming how many. Deleting a species removes its companion relations; deleting a
  cultivar or supplier removes its supplier links. Every write is one transaction.
- **Companions.** A pair is stored once whichever order it was given in: the same pair again, in either
  order, is a 409 (\`existing_id\` names the stored relation). A species paired with itself or an unknown
  species id is a 400.
- **Companion evidence.** Each relation may say how well it is supported in \`evidence\`: \`scientific\`
  (a peer-reviewed study of the pair or its mechanism), \`documented\` (extension services, trials or
  grower reports naming the pair), \`traditional\` (garden lore), or null (not assessed; optional on
  create). Where sources disagree the relation is \`neutral\` and its mechanism names both sides.
  \`GET /api/v1/companions\` filters by \`species\` (slug, either side), \`relationship\` and
  \`evidence\`; \`GET /api/v1/species/{ref}/companions\` by \`relationship\` and \`evidence\`. Filters
  combine with AND; an \`evidence\` filter never matches a relation whose evidence is null; an unknown
  \`species\` slug gives an empty list, an unknown value of \`relationship\` or \`evidence\` is a 400.
- **Concurrent writes.** The database's constraints decide, not a check before the write: of identical
  creates sent at once (companion pairs, supplier links) one succeeds and the others get 409; a create
  whose parent (family, species, supplier) is deleted meanwhile gets 400 naming the field; a delete of a
  record that gained a child meanwhile gets 409; a PUT or DELETE whose record was deleted meanwhile gets
  404. A create that loses the race for a slug too often gets 409 (retry it). No write answers an empty 200.
- **Database unavailable.** While the database cannot be reached, data routes answer 503
  \`{"error", "retry_after"}\` with \`Retry-After: 1\`, never a 500.
- **Validation.** Unknown JSON fields, wrong types, malformed uuids, months outside 1–12, ISO weeks
  outside 1–52, negative counts and pH outside 0–14 are 400s naming the field. Unknown query
  parameters are 400s too. \`page\` outside 1–1,000,000, \`per_page\` outside 1–100, \`limit\` outside
  1–100, non-integer or non-finite values (\`1e309\`, \`Infinity\`) are 400s naming the parameter (no
  silent clamping). \`page\`, \`per_page\` and \`limit\` are optional (defaults 1, 25, 20). A NUL character
  anywhere in a path, query parameter or JSON string (or key) is a 400 naming the field. A path
  parameter over 500 characters is a 414. URL fields (\`url\`, \`product_url\`, \`source_url\`,
  \`usesdb_url\`, \`source_urls\`) take absolute http or https URLs only; any other scheme (\`javascript:\`,
  \`data:\`, with leading whitespace or in any case) is a 400 naming the field. An unknown \`family\` or \`species\` slug in
  a list filter gives an empty page.
- **Vocabularies.** \`plant_layer\`: ${PLANT_LAYERS.join(', ')}. \`drought_tolerance\`, \`salt_tolerance\`:
  ${TOLERANCE_LEVELS.join(', ')}. \`native_status\` (Central Europe): ${NATIVE_STATUSES.join(', ')}.
  \`succession_stage\`: ${SUCCESSION_STAGES.join(', ')}. Companion \`relationship\`: ${RELATIONSHIPS.join(', ')}; \`evidence\`:
  ${EVIDENCE_LEVELS.join(', ')}.
- **Payloads.** CreateSpecies and CreateCultivar carry the fields a planner enters; the other
  record fields (soil analytics, storage and yield data, ...) are filled by bulk import.
- **Limits.** JSON (and text) bodies over 1 MiB (1,048,576 bytes): 413 naming the limit, detected while the
  body streams in (image uploads: see Images). JSON nesting arrays or objects more than 32 deep: 400
  naming the limit, before the body is parsed. Text fields have documented maximum lengths. A write
  is checked for its credential (401, 403) before its body is read.
- **Timeouts.** Headers must arrive within \`HEADERS_TIMEOUT_SECONDS\` (default 10 s), the whole request
  within \`REQUEST_TIMEOUT_SECONDS\` (default 60 s); otherwise the server answers 408 and closes the
  connection (a 408 comes from the HTTP server itself, not from an operation). Idle keep-alive
  connections close after \`KEEP_ALIVE_TIMEOUT_SECONDS\` (default 10 s).
- **Authorization.** No valid session: 401. A session whose user may not write (see \`WRITE_ACCESS\`
  in the README; default \`groups\`: editors and administrators only): 403. Deleting families, species, cultivars
  and suppliers needs an administrator: 403 otherwise. Deleting supplier links and companion relations
  needs a session that may write.
- **Unknown routes** answer 404 \`{"error"}\`. CORS preflights (\`OPTIONS\`) are answered 204 and are not
  operations of this document.
- **Request ids.** Every response carries \`X-Request-Id\`: the request's own when it is 1–128 letters,
  digits or \`-_.:\`, else a random UUID; the service's log lines for the request carry it too.
- **Compression.** JSON, NDJSON and YAML bodies of 1 KiB or more are sent br- or gzip-encoded (br
  preferred) when \`Accept-Encoding\` allows, with \`Vary: Accept-Encoding\`. The \`ETag\` identifies
  the content, not the encoding: it is the same either way, and \`If-None-Match\` → 304 works with both.
- **Probes.** \`/health\` is liveness, \`/ready\` readiness (database answers and migrations applied);
  \`/metrics\` is Prometheus text (\`METRICS_ENABLED\`; with \`METRICS_TOKEN\` set, only for
  \`Authorization: Bearer <METRICS_TOKEN>\`, else 401).
- **Caching.** Public GETs of data carry an \`ETag\` (\`If-None-Match\` → 304) and
  \`Cache-Control: public, no-cache\` (caches may store them but must revalidate; an operator may allow
  reuse for a while instead, see \`HTTP_MAX_AGE_SECONDS\` in the README). \`X-Cache: HIT\` says the
  service answered from its own response cache. Every change to the data, whoever makes it (this API,
  the command line, another program writing to the database), is seen by the next request: at once
  after a write through this API, within about a second otherwise.
- **Bulk export** (\`GET /api/v1/export\`, public): the whole database as NDJSON, one record per line with
  its kind in \`type\`, in dependency order, references by slug, no ids or timestamps, sorted, so the same
  data gives the same bytes anywhere; \`npm run plants -- import\` reads it back (upsert by slug, one
  transaction). Images are not part of it. Its \`ETag\` hashes each exported table's row count and newest
  row version (PostgreSQL \`xmin\`): any insert, update or delete changes it, an import that changes
  nothing keeps it; \`If-None-Match\` → 304, \`Cache-Control: no-cache\`. Each version is dumped once from
  one snapshot and the file is streamed to every client asking for it. Bulk imports run from the CLI
  (no HTTP import endpoint) and invalidate the response caches like any write.

## Change log: history, feed, revert
- **What is recorded.** Every create, update and delete of a family, species, cultivar, supplier,
  supplier link, companion relation or image, by whoever writes (this API, the bulk import, SQL),
  recorded by the database in the same transaction: the record's kind, id and slug, the operation,
  every changed field with its old and new value (a create: the fields it set; a delete: every field
  the record had), the writer (\`user\`, \`token\`, \`import\` or \`database\`), and the reason.
  Derived columns and \`updated_at\` are left out; an update that changed nothing is not recorded.
- **Reason.** Any data write may send \`X-Change-Reason\`: percent-encoded UTF-8, at most 500
  characters once decoded, no control characters (else 400 naming \`x-change-reason\`).
- **Who sees what.** Reads are public: the changes, the writer's kind and an editor's display name.
  A signed-in administrator also sees user ids, e-mail addresses, the API token (id and name) and the
  database role.
- **Feed** (\`GET /api/v1/changes\`): entries in commit order; positions have no gaps and a position is
  visible only once every smaller one is, so a reader asking with \`after\` = the last \`next\` sees
  every committed change exactly once and never one that rolled back.
- **History** (\`GET /api/v1/{kind}/{ref}/history\`): newest first, paginated; a deleted record by uuid.
- **Revert** (\`POST …/history/{change}/revert\`, editors): see the operation; 409 names the fields
  later changes touched unless \`overwrite\`.
- **Retention.** Entries are kept until an operator prunes them before a date
  (\`npm run plants -- prune-changes --before <date>\`); the feed answers 410 to a reader asking from
  before the pruned part. The export is unaffected.

## Planning: hardiness, facets, guilds, calendar
- **Hardiness zones.** \`hardiness_zone_usda\` is one USDA zone \`N\`, \`Na\` or \`Nb\` (N 1–13) or a range
  \`N-M\` / \`Na-Mb\` (sides may mix, e.g. \`4-8b\`), the colder zone first; anything else, including
  spaces, en dashes or a reversed range, is a 400 naming the field (create, update and bulk import).
  Values stored before this rule were normalised once ("USDA", "zone", spaces dropped; "to" and dashes read
  as a range; a reversed range turned round); values that still did not fit were cleared to null.
- **\`hardiness_zone\` filter** (species list, guild, guild check): a zone \`N\`, \`Na\` or \`Nb\`. A species
  matches when its range covers all of that zone: \`7\` needs both 7a and 7b (\`3-7a\` matches \`7a\` but not
  \`7\`), \`7a\` needs only 7a. A species without a zone never matches: unknown is not hardy.
- **Facets** (\`facets\` on the species list: ${FACETS.join(', ')}): \`facets\` in the page, per facet one entry
  \`{value, count}\` per value in the whole filtered set (not only the page), \`null\` for unknown, so each
  facet's counts add up to \`total\`; by count, then value. \`family\` values are family slugs. An unknown
  name is a 400; without \`facets\` the page is unchanged.
- **Planner fields of a species.** Each is null when not known (never guessed):
  \`legal_status\` (a list of \`{jurisdiction, kind, source, note?}\`; jurisdiction \`EU\` or an ISO 3166-1
  alpha-2 code; kind ${LEGAL_STATUS_KINDS.join(', ')}; \`[]\`: checked against the lists the dataset covers and on
  none), \`hazards\` (\`{kind, parts, text_en, text_de, source}\`, kind ${HAZARD_KINDS.join(', ')}),
  \`edible_parts\` (\`{part, caution_en?, caution_de?}\`, part ${EDIBLE_PARTS.join(', ')}), \`life_cycle\`
  (${LIFE_CYCLES.join(', ')}), \`woody\`, \`leaf_retention\` (${LEAF_RETENTIONS.join(', ')}), \`height_m\` and
  \`width_m\` (typical mature maxima, > 0), \`light\` (a non-empty list of ${LIGHT_LEVELS.join(', ')}, each once),
  \`flower_sex\` (${FLOWER_SEXES.join(', ')}), \`self_fertile\`, \`flowering_months\` (1–12, ascending, each
  once), \`nutrient_demand\` (${NUTRIENT_DEMANDS.join(', ')}). Every \`source\` is an http or https URL. The members
  of a list's items are answered in the order the schema declares them, whatever order a write sent them in;
  an unknown member is a 400 naming it (\`legal_status.0.why\`).
- **Planner filters** (species list): \`light\` (species whose \`light\` holds it), \`life_cycle\`, \`edible_part\`
  (species with an item of that part), \`exclude_legal_status\` (leaves out species carrying a kind in any
  jurisdiction, \`union_list_invasive\`, or in one, \`banned:CH\`; several separated by commas). A species whose
  \`legal_status\` is null is not left out: nothing is known against it. Facets ${PLANNER_FACETS.join(', ')}:
  \`light\` and \`edible_part\` count a species once for each value its list holds (so they need not add up to
  \`total\`), an unknown list under null, an empty one nowhere.
- **Guild functions.** ${GUILD_FUNCTIONS.map((fn) => `\`${fn}\`: ${FUNCTION_RULES[fn]}`).join('; ')}.
- **Guilds** (\`GET /api/v1/species/{ref}/guild\`). Candidates are species other than the focal one that
  have a beneficial relation with it or at least one guild function; a species antagonistic to it is never
  a candidate (it is listed under \`avoid\` with mechanism and evidence, whatever the filters). A neutral
  relation is neither a reason nor a bar. Score: a beneficial relation gives 10, plus
  ${Object.entries(EVIDENCE_BONUS)
    .map(([level, bonus]) => `${bonus} for ${level}`)
    .join(', ')} evidence (unknown: 0); each guild function the candidate has adds 1. In every group,
  candidates rank by score (highest first), then scientific name, then id, and \`limit\` (default 5, at most
  20) are shown. \`functions\` has one group per guild function, \`layers\` one per plant layer; a candidate
  appears in every group it belongs to, and one without a layer only under its functions. With
  \`hardiness_zone\`, candidates must be hardy in all of it (as in the filter); with \`native_status\`, have it.
- **Guilds and the law.** A species on the EU's Union list of invasive alien species (\`legal_status\` kind
  \`union_list_invasive\`, jurisdiction \`EU\`: keeping, growing, selling and releasing it are prohibited in every
  member state) is never a candidate. With \`country\` (an ISO 3166-1 alpha-2 code, upper case), species
  \`banned\` or \`sale_banned\` there are not candidates either; without it national bans are not applied, as the
  service cannot know where the guild is planted. \`protected\` keeps no species out (protection forbids taking
  it from the wild, not planting it). The species left out that would otherwise be candidates (a beneficial
  relation with the focal species or a guild function, and passing the filters) are listed under \`excluded\`
  with the statuses that keep them out; antagonists stay under \`avoid\`. Every member of a guild answer
  carries its \`legal_status\` and \`hazards\`; the guild check lists the members with a legal status in any
  jurisdiction under \`legal_status\` and those with hazards under \`hazards\`.
- **Guild check** (\`POST /api/v1/guilds/check\`, public, changes nothing, not rate-limited as a write):
  \`species\` holds 2–50 slugs or uuids; an unknown one is a 400 naming its position, counted from 0
  (\`species[3]\`); the same species again (by slug or uuid) counts once. \`conflicts\` and \`synergies\` are
  the antagonistic and beneficial relations with both species in the set; \`layers\`/\`roles\` list the
  layers and guild functions present with their members, \`missing_layers\`/\`missing_roles\` those absent.
  With \`hardiness_zone\`, \`outside_zone\` lists members whose range does not cover all of it and
  \`zone_unknown\` members without a zone; without it both are empty.
- **Evidence** on relations in guild answers: \`scientific\` (a peer-reviewed study of the pair or its
  mechanism), \`documented\` (extension services, trials, grower reports naming the pair), \`traditional\`
  (garden lore), or null when unknown.
- **Planting calendar** (\`GET /api/v1/calendar\`). Exactly one of \`month\` (1–12) or \`week\` (ISO week 1–53):
  neither or both is a 400. \`year\` (default: the current year, UTC) decides how weeks fall on months, since
  a week belongs to the month of its Thursday (week 14 of 2026 runs 30 March – 5 April and is in April);
  week 53 of a year with 52 weeks is a 400. For each activity (indoor_sowing, direct_sowing, transplanting,
  glasshouse, harvesting) a cultivar's weeks are its \`<activity>_weeks\`, or, when it has none, the weeks of
  its \`<activity>_months\`; its months are its months, or, when it has none, the months of its weeks. A
  \`week\` asks for cultivars whose weeks include it, a \`month\` for those whose months include it.
  \`species\` (slug; unknown: nothing found) and \`activity\` narrow it. Each activity is ordered by cultivar
  name, then id, and paged by \`page\`/\`per_page\` (default 50, at most 100), with \`has_more\`.

## Sign-in and sessions (environment variables in the README)
- **Login.** OpenID Connect authorization code flow with PKCE (S256) against \`OIDC_ISSUER\` (a confidential
  client with \`client_secret_basic\` when \`OIDC_CLIENT_SECRET\` is set, else a public client). State,
  nonce and code verifier stay on the server for 10 minutes; the state is also put in cookie
  \`oidc_login\` (HttpOnly, SameSite=Lax, Path=/auth/oidc/callback), so only the browser that started
  a login can finish it, and it is used once. \`return_to\` must be a path on this service (not
  \`//host\`, not an absolute URL, not \`/auth/oidc/...\`): 400 otherwise. It is judged after
  normalisation: dot segments (\`/.//host\`, \`/..//host\`, \`/%2e//host\`, \`/x/..//host\`), encoded
  slashes (\`/%2f%2fhost\`) and backslashes, raw or encoded, that could lead to another host are 400s.
- **Callback failures** never create a session: missing \`state\` or \`code\`, or a state that is unknown,
  expired, already used or not this browser's → 400; the provider's \`error\`, a failed code exchange
  (used or tampered code, PKCE, nonce, \`iss\` or ID token check) or no email address → 401.
- **Users** are one per issuer + subject. Email, name and nickname are refreshed at every login, from
  the ID token, else userinfo; \`nickname\` falls back to \`preferred_username\`.
- **Roles** are evaluated at every login and apply to all the user's sessions and tokens from then on. Admin: an
  email listed in \`ADMIN_EMAILS\` that the provider marks verified (\`email_verified\` true or
  "true"), or a group in \`OIDC_ADMIN_GROUPS\`. Editor: a verified email in \`EDITOR_EMAILS\` or a group in \`OIDC_EDITOR_GROUPS\`. Groups come
  from the claim \`OIDC_GROUPS_CLAIM\` (default \`groups\`; a list or one string; a dotted name such as
  \`realm_access.roles\` reaches into objects). \`/auth/me\` shows \`admin\`.
- **Roles lapse** \`ROLE_REFRESH_SECONDS\` (default one day) after the provider last confirmed them,
  which is at a sign-in: the service keeps no refresh token to ask the provider behind the user's
  back. Then every session of the user ends (401), and the user's API tokens still authenticate but
  act as a reader's (\`roles_current: false\` in \`/auth/me\`; writes and admin actions 403) until the
  user signs in again. So a role taken away at the provider is gone here within that time at the
  latest, and at once at the user's next sign-in.
- **Sessions.** Cookie \`id\`: HttpOnly, SameSite=Lax, Path=/, Secure when \`PUBLIC_URL\` is https,
  Max-Age = \`SESSION_MAX_DAYS\`. Every login issues a new id and ends the browser's previous session. A
  session ends after \`SESSION_IDLE_DAYS\` (default 0.5, twelve hours) without a request (sliding), when
  the roles lapse (above), and at the latest \`SESSION_MAX_DAYS\` (default 7) after login; then 401.
  Ended sessions are purged hourly.
- **Logout** (\`GET /auth/oidc/logout\`) deletes the session on the server, clears the cookie and
  redirects to \`/\`; the session at the provider is left alone. Because a GET can be triggered by any
  site (and SameSite=Lax sends the cookie on a top-level navigation), a request that comes from
  elsewhere does not end the session: an \`Origin\` or \`Referer\` other than \`PUBLIC_URL\` or
  \`CORS_ORIGINS\`, or, naming neither, \`Sec-Fetch-Site: cross-site\` or \`same-site\`. It gets a small
  HTML page (200) whose button posts to \`POST /auth/oidc/logout\`, which is checked like every cookie
  write (Origin, below) and then logs out. A request naming no origin and no other site (a typed
  address, a bookmark, curl) logs out at once, as before.
- **Personal API tokens** (\`/api/v1/tokens\`) let scripts and other servers write. A signed-in user
  creates one from a browser session (a token cannot create tokens: 403), with a \`name\` and an optional
  \`expires_at\` (future, at most \`TOKEN_MAX_DAYS\`, default 365 days, ahead: 400 naming \`expires_at\`
  otherwise; absent: \`TOKEN_DEFAULT_DAYS\`, default 90 days; every token expires); the answer shows the secret once: \`plants_pat_\`, the
  token's id as 32 hex digits, then 43 random base64url characters. Only its SHA-256 is stored, compared
  in constant time. A token acts with its owner's roles as they are at each request (a login that drops
  a group takes the role from the tokens too; lapsed roles, above, make it a reader's). Unknown, malformed, revoked or expired: 401, even when a
  valid session cookie comes along (a request with a bearer token is judged by the token alone, and is
  exempt from the Origin check below, as a browser never sends one on its own). Lists show name, created,
  last used (to the minute) and expiry, never the secret; an administrator lists everyone's with
  \`all=true\` and may revoke any token, others revoke their own (someone else's is a 404). Revoking
  deletes the token. Public reads need no credential and ignore one.
- **Disabling a user.** An administrator lists users (\`GET /api/v1/users\`) and disables one
  (\`POST /api/v1/users/{id}/disable\`): in one transaction every session of the user ends and every
  API token is revoked (401 from the next request on), and the user's sign-in answers 403 until an
  administrator enables them again (\`POST /api/v1/users/{id}/enable\`; old sessions and tokens stay
  gone). \`disabled_at\` and \`disabled_by\` record when and by whom, and the log says
  \`user disabled\`. An administrator cannot disable their own account (409). Disabling here does not
  touch the account at the provider.
- **Cross-site requests.** A POST, PUT or DELETE carrying cookie \`id\` must send an \`Origin\` (or, if
  none, a \`Referer\`) equal to \`PUBLIC_URL\` or one of \`CORS_ORIGINS\`: 403 otherwise. CORS (with
  credentials) is answered for exactly those origins.
- **Login unavailable.** Without \`OIDC_ISSUER\` every \`/auth/oidc/*\` route answers 503
  \`{"error": "login is not configured"}\`. While the provider cannot be reached at start, reads work and
  login answers 503; discovery is retried after 1 s, doubling up to 5 minutes.
- **Rate limits**: \`/auth/*\` per client address, writes per user (once the credential is checked; a
  write without a valid one is a 401 and not counted): 60 and 300 requests a minute by default
  (\`RATE_LIMIT_AUTH_PER_MINUTE\`, \`RATE_LIMIT_WRITES_PER_MINUTE\`; 0 is off). Over the limit: 429
  \`{"error", "retry_after"}\` with \`Retry-After\`.
- **Security headers** on every response: a Content-Security-Policy allowing only this origin (plus
  inline styles, which the \`/api/docs\` page needs), \`X-Content-Type-Options: nosniff\`,
  \`X-Frame-Options: DENY\`, and HSTS when \`PUBLIC_URL\` is https.

## Images (files in object storage, environment variables in the README)
- **Upload form.** \`multipart/form-data\`; the text fields first and \`file\` last (its bytes stream to
  storage as they arrive). A field after the file, a second file, a file under another name, a repeated
  or unknown field: 400 naming it. An empty optional field counts as absent. A form that cannot be
  parsed (no boundary, truncated, broken part headers): 400.
- **File checks.** The type comes from the file's bytes, never from its declared type or name: JPEG, PNG
  (also animated) or WebP, else 415. Over \`IMAGE_MAX_BYTES\` (default 10 MiB): 413, while streaming; the
  rest of the body is not read. Width × height over 50,000,000 pixels: 400, read from the header before
  anything is decoded; a header that cannot be read: 400. Pixels that would take more than
  \`IMAGE_MAX_DECODED_MB\` (default 150 MiB) decoded, width × height × channels × bytes per sample (a
  16-bit RGBA PNG takes 8 bytes a pixel): 413 naming the limit, from the header, before decoding.
- **Image work.** Uploads' decodes and \`/img?w=\` resizes take turns: \`IMAGE_WORKERS\` (default 2) at
  once, up to \`IMAGE_QUEUE_MAX\` (default 32) more waiting; beyond that 503 \`{"error", "retry_after"}\`
  with \`Retry-After: 2\`. Plain \`/img\` reads never wait for them. \`width\`/\`height\` are as displayed (JPEG EXIF
  orientation applied). Records are checked before the file is read: unknown record 404.
- **Image records** carry the upload form's fields, \`id\`, \`store_key\` and \`created_at\`, plus \`content_type\`, \`byte_size\`, \`width\` and \`height\`.
  \`store_key\` is \`<entity_type>/<entity_id>/<id>.<jpg|png|webp>\` (\`id\` is the image's id) and the
  file is at \`/img/<store_key>\`.
- **Primary image.** A record with images has exactly one primary. Its first image becomes primary (even
  with \`is_primary\` false); \`is_primary\` true or 1 makes the new image the primary; deleting the primary
  promotes the newest remaining image. Species and cultivars mirror it in \`primary_image_key\` (null
  without images), as do companions in \`species_a_image\`/\`species_b_image\`; families have no such
  field: their primary is the image flagged \`is_primary\`, listed first. Each change is one transaction.
- **Lists** of a record's images: primary first, then newest. An unknown record gives \`[]\`.
- **Deleting** an image (admin) removes its record, then its file and resized copies. Deleting a family,
  species or cultivar removes its images too; a refused delete (409) keeps them.
- **\`/img\`** serves the files: \`Cache-Control: public, max-age=31536000, immutable\` (keys are never
  reused), a strong ETag, 304 for a matching \`If-None-Match\`, 206 for one byte range (several ranges:
  the whole file; \`If-Range\` honoured), 416 past the end. Any path that is not an existing image's key
  is a 404. \`?w=\` 160, 320, 640 or 1280 (else 400) serves a WebP copy of that width (quality 80, EXIF
  orientation applied, never wider than the original), made on first request and kept in storage.
- **Storage failures.** Object storage unreachable: 503. An upload writes the file, then the record; if
  the record fails the file is deleted. Deletes remove the record, then the files. Files left without a
  record (a crash in between, a failed file delete) are removed by a sweep every
  \`STORAGE_GC_INTERVAL_MINUTES\` once older than \`STORAGE_GC_GRACE_MINUTES\`, and by \`npm run storage:gc\`.
`.trim();
