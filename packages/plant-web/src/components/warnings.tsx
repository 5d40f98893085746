/**
 * What a planner must know before planting a species, shown where the decision is made: its legal
 * statuses (the EU's Union list of invasive species, national bans, protection) and its hazards
 * (poisonous parts, phototoxic sap, irritation, dangerous look-alikes), in the page's language.
 */
import type { EdiblePart, Hazard, LegalStatus } from '../api.js';
import { useT } from '../i18n.js';
import { jurisdictionLabel, label, vocabularyLabel, WARNING_LABELS } from '../labels.js';

interface Warned {
  legal_status?: LegalStatus[] | null;
  hazards?: Hazard[] | null;
}

/** A status as one line: "EU: Invasive species of the EU Union list". */
export function statusText(status: LegalStatus, lang: 'de' | 'en'): string {
  return `${jurisdictionLabel(status.jurisdiction, lang)}: ${vocabularyLabel('kind', status.kind, lang)}`;
}

/** The full warning block of a species page; nothing when nothing is known against it. */
export function Warnings({ record }: { record: Warned }) {
  const { lang } = useT();
  const statuses = record.legal_status ?? [];
  const hazards = record.hazards ?? [];
  if (statuses.length === 0 && hazards.length === 0) return null;
  return (
    <section class="warnings" aria-labelledby="warnings-title" data-warnings>
      <h2 id="warnings-title" class="visually-hidden">
        {label(WARNING_LABELS.legalStatus, lang)} / {label(WARNING_LABELS.hazards, lang)}
      </h2>
      {statuses.length > 0 ? (
        <div class="warning legal" data-legal-status>
          <h3>
            <span aria-hidden="true">⚠ </span>
            {label(WARNING_LABELS.legalStatus, lang)}
          </h3>
          <ul class="warning-list">
            {statuses.map((status) => (
              <li key={`${status.jurisdiction}-${status.kind}`} data-kind={status.kind}>
                <strong>{statusText(status, lang)}</strong>
                {status.note ? ` — ${status.note}` : ''} (
                <a href={status.source}>{label(WARNING_LABELS.source, lang)}</a>)
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {hazards.length > 0 ? (
        <div class="warning hazard" data-hazards>
          <h3>
            <span aria-hidden="true">⚠ </span>
            {label(WARNING_LABELS.hazards, lang)}
          </h3>
          <ul class="warning-list">
            {hazards.map((hazard, i) => (
              <li key={`${hazard.kind}-${i}`} data-kind={hazard.kind}>
                <strong>{vocabularyLabel('kind', hazard.kind, lang)}</strong>
                {hazard.parts.length > 0
                  ? ` (${hazard.parts.map((part) => vocabularyLabel('part', part, lang)).join(', ')})`
                  : ''}
                : <span lang={lang}>{lang === 'de' ? hazard.text_de : hazard.text_en}</span> (
                <a href={hazard.source}>{label(WARNING_LABELS.source, lang)}</a>)
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** Short badges for a card (guild candidates, the plant-list check). */
export function WarningBadges({ member }: { member: Warned }) {
  const { lang } = useT();
  const statuses = member.legal_status ?? [];
  const hazards = member.hazards ?? [];
  if (statuses.length === 0 && hazards.length === 0) return null;
  const kinds = [...new Set(hazards.map((h) => h.kind))];
  return (
    <ul class="badges" data-warning-badges>
      {statuses.map((status) => (
        <li key={`${status.jurisdiction}-${status.kind}`} class="badge legal">
          <span aria-hidden="true">⚠ </span>
          {statusText(status, lang)}
        </li>
      ))}
      {kinds.map((kind) => (
        <li key={kind} class="badge hazard">
          <span aria-hidden="true">⚠ </span>
          {vocabularyLabel('kind', kind, lang)}
        </li>
      ))}
    </ul>
  );
}

/** The edible parts, each with its preparation caution where one applies. */
export function EdibleParts({ parts }: { parts: EdiblePart[] | null | undefined }) {
  const { lang } = useT();
  if (!parts || parts.length === 0) return null;
  return (
    <section class="field-group" aria-labelledby="edible-parts">
      <h2 id="edible-parts">{label(WARNING_LABELS.ediblePartsTitle, lang)}</h2>
      <ul data-edible-parts>
        {parts.map((part) => {
          const caution =
            lang === 'de' ? (part.caution_de ?? part.caution_en) : (part.caution_en ?? part.caution_de);
          return (
            <li key={part.part}>
              {vocabularyLabel('part', part.part, lang)}
              {caution ? (
                <>
                  {' — '}
                  <strong class="caution">{label(WARNING_LABELS.caution, lang)}:</strong> {caution}
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
