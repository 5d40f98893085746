import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { Evidence, LegalStatus, Member } from '../api.js';
import { withQuery } from '../api.js';
import { commonName, Loading, SpeciesCard, useTitle } from '../components/common.js';
import { statusText, WarningBadges, Warnings } from '../components/warnings.js';
import { useT } from '../i18n.js';
import { COUNTRIES, jurisdictionLabel, label, PLANT_LAYERS, valueLabel, WARNING_LABELS } from '../labels.js';
import { useApi } from '../use-api.js';

interface Candidate extends Member {
  score: number;
  reasons: {
    functions: string[];
    companion: { mechanism: string | null; evidence: Evidence } | null;
  };
}
interface Guild {
  species: Member;
  functions: Record<string, Candidate[]>;
  layers: Record<string, Candidate[]>;
  avoid: (Member & { mechanism: string | null; evidence: Evidence })[];
  excluded: (Member & { reasons: LegalStatus[] })[];
}

/** Guild suggestions for one species: partners by layer and by function, and what to keep apart. */
export function GuildPage() {
  const { t, lang } = useT();
  const { params } = useRoute();
  const [zone, setZone] = useState('');
  const [country, setCountry] = useState('');
  const guild = useApi<Guild>(
    withQuery(`/api/v1/species/${encodeURIComponent(params.slug ?? '')}/guild`, {
      hardiness_zone: zone,
      country,
      limit: 6,
    }),
  );
  const focal = guild.data?.species;
  useTitle(focal ? `${t('guildFor')} ${commonName(focal, lang) ?? focal.name_scientific}` : t('guildLink'));

  const why = (c: Candidate) => (
    <>
      <WarningBadges member={c} />
      <p class="reasons">
        {c.reasons.functions.map((f) => valueLabel(f, lang)).join(', ')}
        {c.reasons.companion?.mechanism ? ` · ${c.reasons.companion.mechanism}` : ''}
      </p>
    </>
  );
  return (
    <Loading {...guild}>
      {(g) => (
        <>
          <h1>
            {t('guildFor')} {commonName(g.species, lang) ?? ''} <i>{g.species.name_scientific}</i>
          </h1>
          <div class="filter">
            <label for="guild-zone">{t('zone')}</label>
            <select id="guild-zone" value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
              <option value="">{t('any')}</option>
              {Array.from({ length: 13 }, (_, i) => String(i + 1)).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <label for="guild-country">{label(WARNING_LABELS.country, lang)}</label>
            <select id="guild-country" value={country} onChange={(e) => setCountry(e.currentTarget.value)}>
              <option value="">{label(WARNING_LABELS.anyCountry, lang)}</option>
              {COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {jurisdictionLabel(code, lang)}
                </option>
              ))}
            </select>
          </div>
          <Warnings record={g.species} />
          <section aria-labelledby="by-layer">
            <h2 id="by-layer">{t('byLayer')}</h2>
            {PLANT_LAYERS.filter((layer) => (g.layers[layer] ?? []).length > 0).map((layer) => (
              <div key={layer}>
                <h3>{valueLabel(layer, lang)}</h3>
                <ul class="cards">
                  {(g.layers[layer] ?? []).map((c) => (
                    <SpeciesCard key={c.id} member={c} extra={why(c)} />
                  ))}
                </ul>
              </div>
            ))}
          </section>
          <section aria-labelledby="by-function">
            <h2 id="by-function">{t('byFunction')}</h2>
            {Object.entries(g.functions)
              .filter(([, list]) => list.length > 0)
              .map(([fn, list]) => (
                <div key={fn}>
                  <h3>{valueLabel(fn, lang)}</h3>
                  <ul class="cards">
                    {list.map((c) => (
                      <SpeciesCard key={c.id} member={c} extra={why(c)} />
                    ))}
                  </ul>
                </div>
              ))}
          </section>
          <section aria-labelledby="avoid">
            <h2 id="avoid">{t('avoid')}</h2>
            {g.avoid.length === 0 ? (
              <p>{t('none')}</p>
            ) : (
              <ul class="cards">
                {g.avoid.map((a) => (
                  <SpeciesCard
                    key={a.id}
                    member={a}
                    extra={
                      <>
                        <WarningBadges member={a} />
                        <p class="reasons">
                          {a.mechanism ?? t('unknown')}
                          {a.evidence ? ` · ${valueLabel(a.evidence, lang)}` : ''}
                        </p>
                      </>
                    }
                  />
                ))}
              </ul>
            )}
          </section>
          {g.excluded.length > 0 ? (
            <section aria-labelledby="excluded" data-excluded>
              <h2 id="excluded">{label(WARNING_LABELS.excluded, lang)}</h2>
              <p>{label(WARNING_LABELS.excludedIntro, lang)}</p>
              <ul class="cards">
                {g.excluded.map((e) => (
                  <SpeciesCard
                    key={e.id}
                    member={e}
                    extra={
                      <p class="reasons">
                        {e.reasons.map((r) => (
                          <span key={`${r.jurisdiction}-${r.kind}`}>
                            <span aria-hidden="true">⚠ </span>
                            {statusText(r, lang)} (<a href={r.source}>{label(WARNING_LABELS.source, lang)}</a>
                            ){' '}
                          </span>
                        ))}
                      </p>
                    }
                  />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </Loading>
  );
}
