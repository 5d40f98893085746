import { Type } from 'typebox';
import { ZONE_PATTERN } from './hardiness.js';

/** A zone in a query: species (or candidates) must be hardy in every part of it. */
export const HardinessZoneParam = Type.String({
  pattern: ZONE_PATTERN,
  maxLength: 3,
  description:
    'USDA zone `N`, `Na` or `Nb` (1–13). Matches species whose `hardiness_zone_usda` range covers all ' +
    'of it (`7` needs both 7a and 7b); species without a zone never match.',
});
