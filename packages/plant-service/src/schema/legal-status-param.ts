import { Type } from 'typebox';
import { JURISDICTION_PATTERN } from './species-fields.js';
import { LEGAL_STATUS_KINDS } from './vocabularies.js';

const KIND = `(${LEGAL_STATUS_KINDS.join('|')})`;
const ONE = `${KIND}(:${JURISDICTION_PATTERN.slice(1, -1)})?`;

/** `kind` or `kind:JURISDICTION`, several separated by commas. */
export const ExcludeLegalStatusParam = Type.String({
  maxLength: 200,
  pattern: `^${ONE}(,${ONE})*$`,
  description:
    'Leaves out species carrying a legal status: a kind (`union_list_invasive`, `banned`, `sale_banned`, ' +
    '`protected`) in any jurisdiction, or `kind:JURISDICTION` (`banned:CH`, `protected:DE`) in that one; ' +
    'several separated by commas (`union_list_invasive,banned:CH,sale_banned:CH`). Species whose ' +
    '`legal_status` is unknown (null) are not left out.',
});

export interface LegalStatusMatch {
  kind: (typeof LEGAL_STATUS_KINDS)[number];
  jurisdiction?: string;
}

/** The statuses a parameter names; it has passed the pattern. */
export function parseExcludedStatuses(text: string): LegalStatusMatch[] {
  return text.split(',').map((part) => {
    const [kind, jurisdiction] = part.split(':') as [LegalStatusMatch['kind'], string | undefined];
    return jurisdiction === undefined ? { kind } : { kind, jurisdiction };
  });
}
