import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../http/route-schemas.js';
import { Ref } from '../../schema/types.js';
import { CalendarQuery, CalendarSchema } from './schemas.js';
import type { calendarService } from './service.js';

export const calendarRoutes =
  (service: ReturnType<typeof calendarService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { cache: true },
        schema: {
          tags: ['calendar'],
          operationId: 'getCalendar',
          summary: 'Cultivars to act on in a month or an ISO week',
          description:
            'Exactly one of `month` or `week` (neither or both: 400). Grouped by activity, each paged by ' +
            '`page`/`per_page`. Rules: "Planting calendar" in the API description.',
          querystring: CalendarQuery,
          response: { 200: Ref(CalendarSchema), ...errors(400) },
        },
      },
      (request) => service.calendar(request.query),
    );
  };
