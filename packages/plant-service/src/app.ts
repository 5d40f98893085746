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
import { type ChangeFeed, changeFeedFor } from './db/change-feed.js';
import type { Database } from './db/client.js';
import { changeAttribution } from './http/change-attribution.js';
import { registerCompression } from './http/compression.js';
import { installErrorHandling } from './http/error-handler.js';
import { documentLongPaths, frameworkErrors, MAX_PARAM_LENGTH } from './http/framework-errors.js';
import { JSON_BODY_LIMIT, registerJsonBodyLimits } from './http/json-body.js';
import { withLogRedaction } from './http/log-redaction.js';
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
  /** The database's announcements of changes (db/change-feed.ts); by default one of the app's own, closed with it. */
  changeFeed?: ChangeFeed;
  /** While this answers true (the database or starter dataset is not ready), requests other than /health get a 503. */
  startingUp?: () => boolean;
}

export const BODY_LIMIT = 1024 * 1024;

export async function buildApp({
  config,
  database,
  logger = false,
  store,
  changeFeed,
  startingUp,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === false ? false : withLogRedaction(logger === true ? { level: config.logLevel } : logger),
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
  const metrics = createMetrics(database);
  app.decorate('metrics', metrics);
  metrics.install(app);

  for (const schema of [ErrorBody, DeletedBody, ...sharedSchemas]) app.addSchema(schema);
  await registerSecurity(app, config.auth);
  const feed = changeFeed ?? (await changeFeedFor(database, app.log));
  if (!changeFeed) app.addHook('onClose', () => feed.close());
  // The cache's ETag hook sees (and hashes) the uncompressed body; what it keeps is what was sent.
  const cache = responseCache({
    feed,
    maxBytes: config.responseCacheBytes,
    maxAgeSeconds: config.httpMaxAgeSeconds,
    metrics,
  });
  await app.register(cache.lookup);
  await registerCompression(app);
  await app.register(cache.keep);
  await registerOpenApi(app);
  if (config.metricsEnabled) metrics.serve(app, config.metricsToken);
  await app.register(cookie);
  await app.register(csrfOriginCheck, { trustedOrigins: config.auth.trustedOrigins });
  await app.register(authGuard, { database, config });
  await app.register(authRoutes(createOidcLogin(app, database, config), config));
  await app.register(changeAttribution);

  const imageStore = store ?? (await createObjectStore(config.storage.store));
  if (!store) app.addHook('onClose', () => imageStore.close());
  await registerResources(
    app,
    database,
    {
      store: imageStore,
      imageMaxBytes: config.storage.imageMaxBytes,
      imageMaxDecodedBytes: config.storage.imageMaxDecodedBytes,
      imageWork: config.storage.imageWork,
      onResize: metrics.resize,
    },
    config,
  );
  await registerWebPages(app);
  return app;
}
