/**
 * The change feed (`/api/v1/changes`), each catalogue kind's history
 * (`/api/v1/{kind}/{ref}/history`) and revert (`…/history/{change}/revert`). Reads are public;
 * a signed-in administrator's reads show writers' e-mail addresses and tokens too.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { needsAuth } from '../../http/needs-auth.js';
import { errors, sessionSecurity, writeErrors } from '../../http/route-schemas.js';
import { Ref, RefParams } from '../../schema/types.js';
import {
  ChangeFeedQuery,
  ChangeFeedSchema,
  ChangeSchema,
  HistoryPageSchema,
  HistoryQuery,
  MAX_FEED_LIMIT,
  RevertBody,
  RevertParams,
} from './schemas.js';
import { type changeService, HISTORY_KINDS, type HistoryKind, type Viewer } from './service.js';

/** Public, and more for a signed-in administrator. */
const optionalSecurity: Record<string, string[]>[] = [{}, ...sessionSecurity];

const viewerOf = (request: FastifyRequest): Viewer => ({ admin: request.user?.is_admin ?? false });

const WHO_SEES =
  "Everyone sees the changes, the kind of writer and an editor's display name; administrators also see " +
  'e-mail addresses, the API token used and the database role.';

export const changeRoutes = (service: ReturnType<typeof changeService>) =>
  needsAuth(async (app) => {
    app.get(
      '/changes',
      {
        preHandler: app.auth.optional,
        schema: {
          operationId: 'listChanges',
          tags: ['changes'],
          summary: 'The change feed: every committed change, in commit order',
          description:
            'Entries after `after` in commit order, at most `limit` (up to ' +
            `${MAX_FEED_LIMIT}). Ask again with \`after\` = \`next\`: a client polling this way sees every ` +
            'committed change exactly once, in commit order, and never one that rolled back. Deletes are ' +
            'tombstones (`op: delete` with kind, id, slug and the last values). Entries are kept until an ' +
            'operator prunes them (`prune-changes`); asking from before the pruned part answers 410. ' +
            WHO_SEES,
          security: optionalSecurity,
          querystring: ChangeFeedQuery,
          response: { 200: Ref(ChangeFeedSchema), ...errors(400, 410) },
        },
      },
      (request) => service.feed(request.query, viewerOf(request)),
    );

    for (const [path, { noun }] of Object.entries(HISTORY_KINDS)) {
      const kind = path as HistoryKind;
      const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
      app.get(
        `/${path}/:ref/history`,
        {
          preHandler: app.auth.optional,
          schema: {
            operationId: `get${Noun}History`,
            tags: [path, 'changes'],
            summary: `The history of a ${noun}, newest first`,
            description:
              `Every recorded change of the ${noun}, newest first, paginated. A deleted ${noun} is found by ` +
              `its uuid. ${WHO_SEES}`,
            security: optionalSecurity,
            params: RefParams,
            querystring: HistoryQuery,
            response: { 200: Ref(HistoryPageSchema), ...errors(400, 404) },
          },
        },
        (request) => service.history(kind, request.params.ref, request.query, viewerOf(request)),
      );

      app.post(
        `/${path}/:ref/history/:change/revert`,
        {
          preHandler: app.auth.writer,
          schema: {
            operationId: `revert${Noun}Change`,
            tags: [path, 'changes'],
            summary: `Revert one change of a ${noun}`,
            description:
              'The fields the change touched go back to their values before it, recorded as a new change ' +
              'whose `reverts` names it; the answer is that new change. 409 naming the fields when a later ' +
              'change touched any of them, unless `overwrite` is true. A delete is reverted by restoring ' +
              `the ${noun} with its id and slug (409 when another record took the slug; its images are not ` +
              'restored), a create by deleting it (administrators only, as deletes are).',
            security: sessionSecurity,
            params: Type.Object({ ref: RefParams.properties.ref, change: RevertParams.properties.change }),
            body: Type.Optional(RevertBody),
            response: { 200: Ref(ChangeSchema), ...errors(...writeErrors, 404, 409) },
          },
        },
        (request) =>
          service.revert(
            kind,
            request.params.ref,
            request.params.change,
            request.body?.overwrite ?? false,
            viewerOf(request),
          ),
      );
    }
  });
