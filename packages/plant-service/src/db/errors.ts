/** PostgreSQL error codes (SQLSTATE) the repositories act on; both drivers expose `code`. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_CHECK_VIOLATION = '23514';

/** The SQLSTATE of a database error, looking through drizzle's wrapper (`cause`). */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The violated constraint's name, where the driver reports it. */
export function violatedConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** SQLSTATE connection_failure: the class (08) the HTTP layer answers with 503 + Retry-After. */
export const PG_CONNECTION_FAILURE = '08006';

/**
 * The error to throw for a query whose connection was lost. node-postgres reports a dropped
 * socket without any code; giving it the SQLSTATE PostgreSQL uses for that case lets the one
 * database-error translation treat it like every other sign of an unreachable database.
 */
export function connectionLost(cause: unknown): Error & { code: string } {
  return Object.assign(new Error('the connection to the database was lost', { cause }), {
    code: PG_CONNECTION_FAILURE,
  });
}
