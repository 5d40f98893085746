/** Pieces every route schema shares: error responses and the security requirement (session or token). */
import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { DeletedBody, ErrorBody, Ref } from '../schema/types.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed input; `error` names the field or parameter.',
  401: 'No valid session (cookie `id`) or API token (`Authorization: Bearer`).',
  403: 'The session lacks the role this needs.',
  404: 'No record with that slug or uuid.',
  409: 'Conflicts with existing data; `error` says how.',
  410: 'No longer kept; `error` says what to do instead.',
  413: 'Request body larger than allowed; `error` names the limit.',
  415: 'Unsupported content type.',
  503: 'Not available right now (the database or the image store cannot be reached); retry after `Retry-After` seconds.',
};

export function errors(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, { ...Ref(ErrorBody), description: DESCRIPTIONS[s] ?? 'Error.' }]),
  ) as Record<number, ReturnType<typeof Ref<typeof ErrorBody>>>;
}

/** Statuses any JSON write can answer besides its own. */
export const writeErrors = [400, 401, 403, 413, 415];

/** Either credential: the session cookie or a personal API token. */
export const sessionSecurity: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];

export const Deleted = Ref(DeletedBody);

export const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * Every route that answers errors can meet an unreachable database or store: each documents the
 * 503, added here as routes are declared rather than by hand on each.
 */
export function documentUnavailable(route: RouteOptions): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (!response || route.schema?.hide || '503' in response) return;
  // The documentation routes serve what is in memory.
  if ((route.schema?.tags as string[] | undefined)?.includes('documentation')) return;
  route.schema = { ...route.schema, response: { ...response, ...errors(503) } };
}
