/**
 * Builds the Fastify instance: infrastructure plugins, then domain routes. No socket here, so
 * tests build the app and call `inject`; server.ts listens.
 */
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { csrfOriginCheck } from './auth/csrf.js';
import { authGuard } from './auth/guard.js';
import { createOidcLogin } from './auth/oidc-login.js';
import type { Config } from './config.js';
import { type ChangeFeed, localChangeFeed } from './db/change-feed.js';
import type { Database } from './db/client.js';
import { orderByArrival } from './http/arrival-order.js';
import { registerCompression } from './http/compression.js';
import { installErrorHandling } from './http/error-handler.js';
import { documentLongPaths, frameworkErrors, MAX_PARAM_LENGTH } from './http/framework-errors.js';
import { JSON_BODY_LIMIT, registerJsonBodyLimits } from './http/json-body.js';
import { createMetrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { echoRequestId, requestId } from './http/request-id.js';
import { responseCache } from './http/response-cache.js';
import { documentUnavailable } from './http/route-schemas.js';
import { registerSecurity } from './http/security.js';
import { fastifyTrustProxy, timeoutOptions } from './http/server-options.js';
import { createValidatorCompiler, defaultedQueryOptional, rejectNulCharacters } from './http/validation.js';
import { registerWebPages } from './http/web-pages.js';
import { authRoutes } from './resources/auth/routes.js';
import { registerResources } from './resources/index.js';
import { sharedSchemas } from './resources/shared-schemas.js';
import { DeletedBody, ErrorBody } from './schema/types.js';
import { createObjectStore } from './storage/create-store.js';
import type { ObjectStore } from './storage/object-store.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** false in tests, a pino options object or true otherwise. */
  logger?: boolean | object;
  /** The image store; by default the one STORAGE_BACKEND names, closed with the app. */
  store?: ObjectStore;
  /** Announces data changes to the response cache; by default local to this process. */
  changeFeed?: ChangeFeed;
  /** While this answers true (the database or starter dataset is not ready), requests other than /health get a 503. */
  startingUp?: () => boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts building the in-memory indexes (species lists, search) now rather than on the first
     * request that needs each; for once the database is migrated and loaded.
     */
    warmIndexes(): void;
  }
}

export async function buildApp({
  config,
  database,
  logger = false,
  store,
  changeFeed = localChangeFeed(),
  startingUp,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === true ? { level: config.logLevel } : logger,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    ...timeoutOptions(config.timeouts),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    requestIdHeader: false,
    genReqId: requestId,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler(() => app.getSchemas()));
  installErrorHandling(app);
  registerJsonBodyLimits(app);
  app.addHook('onRoute', defaultedQueryOptional);
  app.addHook('onRoute', documentUnavailable);
  app.addHook('onRoute', documentLongPaths);
  app.addHook('preValidation', rejectNulCharacters);
  echoRequestId(app);
  if (startingUp) {
    app.addHook('onRequest', async (request, reply) => {
      if (!startingUp() || request.url === '/health') return;
      // `status` too, so the body also fits /ready's own schema.
      return reply.code(503).header('retry-after', '5').send({
        status: 'error',
        error:
          'the service is starting (waiting for its database or loading the starter dataset); try again shortly',
      });
    });
  }
  // The embedded database runs one statement at a time: a request's statements keep its place in line.
  if (database.kind === 'pglite') orderByArrival(app);
  const metrics = createMetrics(database);
  app.decorate('metrics', metrics);
  metrics.install(app);

  for (const schema of [ErrorBody, DeletedBody, ...sharedSchemas]) app.addSchema(schema);
  await registerSecurity(app, config.auth);
  // The cache before compression: its onSend hook must see (and hash) the uncompressed body.
  await app.register(responseCache, { feed: changeFeed, maxBytes: config.responseCacheBytes, metrics });
  await registerCompression(app);
  await registerOpenApi(app);
  if (config.metricsEnabled) metrics.serve(app);
  await app.register(cookie);
  await app.register(csrfOriginCheck, { trustedOrigins: config.auth.trustedOrigins });
  await app.register(authGuard, { database, config });
  await app.register(authRoutes(createOidcLogin(app, database, config), config));

  const imageStore = store ?? (await createObjectStore(config.storage.store));
  if (!store) app.addHook('onClose', () => imageStore.close());
  const resources = await registerResources(
    app,
    database,
    {
      store: imageStore,
      imageMaxBytes: config.storage.imageMaxBytes,
      imageMaxDecodedBytes: config.storage.imageMaxDecodedBytes,
      imageWork: config.storage.imageWork,
      onResize: metrics.resize,
    },
    changeFeed,
  );
  app.decorate('warmIndexes', resources.warmIndexes);
  await registerWebPages(app);
  return app;
}
