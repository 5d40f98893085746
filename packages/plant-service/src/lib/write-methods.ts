/**
 * The HTTP methods that change data, which the CSRF check, the response cache and the CORS rules
 * guard; OPTIONS (a CORS preflight) and HEAD do not change data.
 */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
