/**
 * Turns what can go wrong while the service starts into a StartupError: one sentence naming the
 * cause (the system error code, e.g. ECONNREFUSED) and the variable to fix. The original error
 * stays attached as `cause` for debugging, but is not printed.
 */
import type { Config } from './config.js';
import { StartupError } from './errors.js';
import { errorCode } from './lib/error-code.js';

const POSTGRES_HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  '28P01': 'the password was refused',
  '28000': 'the role may not connect',
  '3D000': 'the database does not exist',
};

/** The database could not be opened, migrated or seeded. */
export function databaseStartupError(error: unknown, config: Config): StartupError {
  const code = errorCode(error) ?? (error instanceof Error ? error.name : 'unknown error');
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    const where = `${url.hostname}:${url.port || 5432}${url.pathname}`;
    const hint = POSTGRES_HINTS[code] ?? 'see the database server log';
    return new StartupError(
      `cannot use PostgreSQL at ${where} (${code}: ${hint}); check DATABASE_URL`,
      'DATABASE_URL',
      { cause: error },
    );
  }
  return new StartupError(
    `cannot open the embedded database in ${config.dataDir}/pglite (${code}); check DATA_DIR (writable, not used by another process)`,
    'DATA_DIR',
    { cause: error },
  );
}

/** listen() failed. */
export function listenStartupError(error: unknown, config: Config): StartupError {
  const code = errorCode(error) ?? 'unknown error';
  const at = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `port ${config.port} on ${config.host} is already in use (EADDRINUSE); stop the other process or set PORT`,
      'PORT',
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new StartupError(`not allowed to listen on ${at} (EACCES); set PORT to 1024 or above`, 'PORT', {
      cause: error,
    });
  }
  return new StartupError(`cannot listen on ${at} (${code}); check HOST and PORT`, 'HOST', { cause: error });
}

/** The object store did not answer a first request. */
export function storeStartupError(error: unknown, config: Config): StartupError {
  const code = errorCode(error) ?? (error instanceof Error ? error.name : 'unknown error');
  const { store } = config.storage;
  if (store.backend === 's3') {
    return new StartupError(
      `the S3 bucket ${store.bucket} cannot be used (${code}); check S3_BUCKET, S3_ENDPOINT and the S3 credentials`,
      'S3_BUCKET',
      { cause: error },
    );
  }
  return new StartupError(
    `the image folder cannot be used (${code}); check DATA_DIR (writable)`,
    'DATA_DIR',
    { cause: error },
  );
}
