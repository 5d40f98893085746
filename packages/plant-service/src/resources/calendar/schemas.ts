import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from '../../schema/types.js';

export const ACTIVITIES = [
  'indoor_sowing',
  'direct_sowing',
  'transplanting',
  'glasshouse',
  'harvesting',
] as const;
export type Activity = (typeof ACTIVITIES)[number];

export const CalendarQuery = Type.Object(
  {
    month: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 12, description: 'Month 1–12; or give `week`.' }),
    ),
    week: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 53,
        description: 'ISO week 1–53 (53 only in years that have it); or give `month`.',
      }),
    ),
    year: Type.Optional(
      Type.Integer({
        minimum: 1900,
        maximum: 2200,
        description:
          'The year whose weeks are meant (they fall on different dates each year); default: the current year (UTC).',
      }),
    ),
    species: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Species slug.' })),
    activity: Type.Optional(Type.Unsafe<Activity>({ type: 'string', enum: [...ACTIVITIES] })),
    page: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      description: 'Page of each activity, 1-based (at most 1,000,000).',
    }),
    per_page: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 50,
      description: 'Cultivars per activity (1–100).',
    }),
  },
  { additionalProperties: false },
);
export type CalendarQuery = Static<typeof CalendarQuery>;

export const CalendarEntrySchema = Type.Object({
  id: Uuid,
  slug: Type.String(),
  name: Type.String(),
  species_slug: Type.String(),
  species_name_scientific: Type.String(),
});
export type CalendarEntry = Static<typeof CalendarEntrySchema>;

const ActivityGroup = Type.Object({
  cultivars: Type.Array(CalendarEntrySchema, { description: 'By cultivar name, then id.' }),
  has_more: Type.Boolean({ description: 'Whether a next page has more cultivars for this activity.' }),
});

export const CalendarSchema = Type.Object(
  {
    year: Type.Integer(),
    month: Type.Integer({ description: 'The month asked for, or the month of the week asked for.' }),
    week: Nullable(Type.Integer({ description: 'The week asked for; null when a month was asked for.' })),
    weeks: Type.Array(Type.Integer(), {
      description: 'The ISO weeks counted: the week, or the weeks of the month.',
    }),
    activities: Type.Object(
      Object.fromEntries(ACTIVITIES.map((a) => [a, Type.Optional(ActivityGroup)])) as Record<
        Activity,
        ReturnType<typeof Type.Optional<typeof ActivityGroup>>
      >,
      { description: 'Every activity, or only the one asked for with `activity`.' },
    ),
  },
  { $id: 'Calendar' },
);
export type Calendar = Static<typeof CalendarSchema>;
