import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import type { ObjectStore } from '../../src/storage/object-store.js';
import { type Contract, checkResponses, contractOf, VIOLATION_HEADER } from './contract.js';
import { testDatabase } from './database.js';
import { signIn } from './sessions.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /**
   * Cookie header of a new session for a new user with the given roles; by default an editor,
   * who may write under the default WRITE_ACCESS=groups (`{}` for a plain reader).
   */
  cookie(roles?: { admin?: boolean; editor?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** Test-only replacements: the image store, a wrapper around the database (failure tests). */
export interface TestAppOptions {
  store?: ObjectStore;
  wrapDatabase?: (database: Database) => Database;
  /** Fastify logger options (e.g. a level and a stream capturing the lines); default off. */
  logger?: object;
  /** A database of the test's own (migrated) instead of a fresh copy of the template; closed with the app. */
  database?: Database;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config = loadConfig({ DEMO_DATA: 'false', ...env });
  const database = options.database ?? (await testDatabase());
  const app = await buildApp({
    config,
    database: options.wrapDatabase?.(database) ?? database,
    ...(options.store ? { store: options.store } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  let contract: Contract | undefined;
  const violations = new Set<string>();
  checkResponses(app, () => contract, violations);
  await app.ready();
  contract = contractOf((await app.inject({ method: 'GET', url: '/api/openapi.yaml' })).body);
  sendOriginByDefault(app, config.auth.publicUrl, violations);
  return {
    app,
    database,
    config,
    cookie: async (roles = { editor: true }) => `id=${await signIn(database, config, roles)}`,
    close: async () => {
      await app.close();
      await database.close();
      // Responses to real HTTP clients, whose callers never saw the violation header.
      if (violations.size > 0)
        throw new Error(`responses broke the OpenAPI contract:\n${[...violations].join('\n')}`);
    },
  };
}

/**
 * Every injected request's response is checked against the served OpenAPI document
 * (helpers/contract.ts): a violation rejects the request's promise, failing the test that sent it.
 * Injected requests stand for a browser on PUBLIC_URL: like a browser on a write, they carry
 * `Origin: PUBLIC_URL` unless the test sets its own, so cookie-authenticated writes pass the
 * CSRF origin check (its own tests are in auth-*.test.ts).
 */
function sendOriginByDefault(app: FastifyInstance, origin: string, violations: Set<string>): void {
  const inject = app.inject.bind(app);
  app.inject = ((options?: InjectOptions | string) => {
    if (options === undefined) return inject();
    const o = typeof options === 'string' ? { url: options } : options;
    return inject({ ...o, headers: { origin, ...o.headers } }).then((response) => {
      const violation = response.headers[VIOLATION_HEADER];
      if (typeof violation === 'string') {
        const message = decodeURIComponent(violation);
        violations.delete(message);
        throw new Error(`OpenAPI contract: ${message}`);
      }
      return response;
    });
  }) as FastifyInstance['inject'];
}
