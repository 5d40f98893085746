import { useState } from 'preact/hooks';
import { ApiError, api, type Evidence, type Member } from '../api.js';
import { commonName, useTitle } from '../components/common.js';
import { WarningBadges } from '../components/warnings.js';
import { useT } from '../i18n.js';
import { label, valueLabel, WARNING_LABELS } from '../labels.js';

interface Pair {
  species_a: Member;
  species_b: Member;
  mechanism: string | null;
  evidence: Evidence;
}
interface GuildCheck {
  species: Member[];
  conflicts: Pair[];
  synergies: Pair[];
  missing_layers: string[];
  missing_roles: string[];
  outside_zone: Member[];
  legal_status: Member[];
  hazards: Member[];
}

/** "Check my plant list": conflicts, synergies and gaps of a set of species. */
export function CheckPage() {
  const { t, lang } = useT();
  useTitle(t('check'));
  const [text, setText] = useState('malus-domestica\nsymphytum-officinale\nallium-schoenoprasum');
  const [zone, setZone] = useState('');
  const [result, setResult] = useState<GuildCheck | undefined>();
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: Event) => {
    event.preventDefault();
    const species = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    setError(undefined);
    try {
      setResult(
        await api.post<GuildCheck>(
          '/api/v1/guilds/check',
          zone ? { species, hardiness_zone: zone } : { species },
        ),
      );
    } catch (caught) {
      setResult(undefined);
      setError(caught instanceof ApiError ? caught.message : String(caught));
    }
  };
  const name = (m: Member) => commonName(m, lang) ?? m.name_scientific;
  const pairs = (list: Pair[]) => (
    <ul>
      {list.map((p) => (
        <li key={`${p.species_a.id}-${p.species_b.id}`}>
          <a href={`/species/${p.species_a.slug}`}>{name(p.species_a)}</a> +{' '}
          <a href={`/species/${p.species_b.slug}`}>{name(p.species_b)}</a>: {p.mechanism ?? t('unknown')}
          {p.evidence ? ` (${valueLabel(p.evidence, lang)})` : ''}
        </li>
      ))}
    </ul>
  );
  const warned = (members: Member[]) => (
    <ul class="warning-list">
      {members.map((m) => (
        <li key={m.id}>
          <a href={`/species/${m.slug}`}>{name(m)}</a>
          <WarningBadges member={m} />
        </li>
      ))}
    </ul>
  );
  return (
    <>
      <h1>{t('check')}</h1>
      <form class="edit-form" onSubmit={submit}>
        <div class="form-field">
          <label for="check-list">{t('plantList')}</label>
          <textarea id="check-list" rows={6} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </div>
        <div class="form-field">
          <label for="check-zone">{t('zone')}</label>
          <input
            id="check-zone"
            type="text"
            value={zone}
            maxLength={3}
            onInput={(e) => setZone(e.currentTarget.value)}
          />
        </div>
        {error ? (
          <p class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="primary">
          {t('checkButton')}
        </button>
      </form>
      {result ? (
        <div class="check-result" aria-live="polite">
          {result.legal_status.length > 0 ? (
            <div class="warning legal" data-legal-status>
              <h2>
                <span aria-hidden="true">⚠ </span>
                {label(WARNING_LABELS.membersLegal, lang)}
              </h2>
              {warned(result.legal_status)}
            </div>
          ) : null}
          {result.hazards.length > 0 ? (
            <div class="warning hazard" data-hazards>
              <h2>
                <span aria-hidden="true">⚠ </span>
                {label(WARNING_LABELS.membersHazards, lang)}
              </h2>
              {warned(result.hazards)}
            </div>
          ) : null}
          <h2>{t('conflicts')}</h2>
          {result.conflicts.length ? pairs(result.conflicts) : <p>{t('none')}</p>}
          <h2>{t('synergies')}</h2>
          {result.synergies.length ? pairs(result.synergies) : <p>{t('none')}</p>}
          <h2>{t('missingLayers')}</h2>
          <p>{result.missing_layers.map((l) => valueLabel(l, lang)).join(', ') || t('none')}</p>
          <h2>{t('missingRoles')}</h2>
          <p>{result.missing_roles.map((r) => valueLabel(r, lang)).join(', ') || t('none')}</p>
          {zone ? (
            <>
              <h2>{t('outsideZone')}</h2>
              <p>{result.outside_zone.map(name).join(', ') || t('none')}</p>
            </>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
