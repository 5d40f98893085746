import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponse } from '@plants/common/http-errors';
import { describeSchemaError } from '@plants/common/validation-message';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import { AppError, ConfigError, Unauthorized } from '../errors.js';
import type { AccountStore } from './accounts.js';
import { authenticator } from './authenticate.js';
import { LoginThrottle } from './login-throttle.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission node a route requires; routes without one are public. */
    permission?: string;
  }
}

export interface WebServerOptions {
  host: string;
  port: number;
  /** Paths of a PEM certificate and key; null serves plain HTTP. */
  tls: { cert: string; key: string } | null;
  accounts: AccountStore;
  loginFailuresPerMinute: number;
  loginFailuresPerAddressPerMinute: number;
  loginFailuresPerAccountPerMinute: number;
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For sets the client address. */
  trustProxy: false | readonly string[];
  /** The longest a route may take to answer; the socket timeouts are set above it (see httpTimeouts). */
  longestOperationMs: number;
  logger: Logger;
  /** Title and version of the OpenAPI document. */
  title: string;
  version: string;
  description: string;
}

export type WebApp = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What a plugin hands to the web server: its id (the route prefix) and its routes. */
export interface PluginRegistration {
  id: string;
  routes: FastifyPluginAsync;
}

/**
 * The web-server module that hosts the plugin's endpoints:
 * Fastify with HTTP Basic against the accounts file, a permission node per route, routes mounted under
 * `/<plugin_id>/`, errors as `{ "error": "..." }`, optional TLS and an OpenAPI document.
 */
export class WebServer {
  readonly app: WebApp;

  private constructor(
    app: WebApp,
    private readonly options: WebServerOptions,
  ) {
    this.app = app;
  }

  static async create(options: WebServerOptions): Promise<WebServer> {
    const timeouts = httpTimeouts(options.longestOperationMs);
    const app = Fastify({
      loggerInstance: options.logger,
      https: options.tls ? readTls(options.tls) : null,
      bodyLimit: 64 * 1024,
      trustProxy: options.trustProxy === false ? false : [...options.trustProxy],
      requestTimeout: timeouts.requestMs,
      connectionTimeout: timeouts.idleMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // Unknown fields are rejected (400 naming them) rather than silently dropped, and values are
      // never coerced: JSON null is not 0 and "5" is not 5. Query strings are text by nature; the
      // routes that take a number there convert it themselves.
      ajv: { customOptions: { removeAdditional: false, allErrors: false, coerceTypes: false } },
    }).withTypeProvider<TypeBoxTypeProvider>() as unknown as WebApp;
    app.server.headersTimeout = timeouts.headersMs;

    const throttle = new LoginThrottle({
      perName: options.loginFailuresPerMinute,
      perAddress: options.loginFailuresPerAddressPerMinute,
      perAccount: options.loginFailuresPerAccountPerMinute,
    });
    app.addHook('onRequest', authenticator(options.accounts, throttle));
    app.setErrorHandler(errorHandler);
    app.setNotFoundHandler((request, reply) => {
      void reply.code(404).send({ error: `no route ${request.method} ${request.url.split('?')[0]}` });
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: options.title, version: options.version, description: options.description },
        // Relative: the document is served by the web server it describes.
        servers: [{ url: '/', description: 'The web server serving this document' }],
        components: {
          securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
        },
      },
    });
    return new WebServer(app, options);
  }

  /** Mounts a plugin's routes under `/<id>/` plus its OpenAPI document at `/<id>/openapi.yaml`. */
  async register(plugin: PluginRegistration): Promise<void> {
    await this.app.register(
      async (scope) => {
        scope.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => {
          return reply.type('application/yaml').send(this.openapiYaml());
        });
        await scope.register(plugin.routes);
      },
      { prefix: `/${plugin.id}` },
    );
  }

  /** The OpenAPI document, generated from the routes' schemas. */
  openapiYaml(): string {
    return this.app.swagger({ yaml: true });
  }

  async listen(): Promise<string> {
    return this.app.listen({ host: this.options.host, port: this.options.port });
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.options.accounts.close();
  }
}

/** Slack between the longest operation and the socket timeouts, so the route always answers first. */
const TIMEOUT_MARGIN_MS = 10_000;

/**
 * The web server's client-facing timeouts: a slow or idle client must not hold a socket forever, yet
 * no timeout may cut a route that is still working on its answer.
 * - `idleMs` (the socket's inactivity timeout) is the only one Node applies while a handler runs, so it
 *   sits above the longest operation: otherwise a `/spawn` still waiting for the game ends in a reset
 *   socket instead of its 503.
 * - `requestMs` bounds receiving a whole request (headers and body); it is set to the same value.
 * - `headersMs` bounds receiving the headers only; Node stops it once they are in, so it stays short
 *   against clients that trickle headers.
 * - `keepAliveMs` is the wait for the next request on an idle connection, between operations; it is
 *   above the 60 s idle timeout common to reverse proxies, so the proxy, not the NPC, closes first.
 */
export function httpTimeouts(longestOperationMs: number): {
  idleMs: number;
  requestMs: number;
  headersMs: number;
  keepAliveMs: number;
} {
  const idleMs = longestOperationMs + TIMEOUT_MARGIN_MS;
  return { idleMs, requestMs: idleMs, headersMs: 15_000, keepAliveMs: 72_000 };
}

function readTls(tls: { cert: string; key: string }): { cert: Buffer; key: Buffer } {
  try {
    return { cert: readFileSync(tls.cert), key: readFileSync(tls.key) };
  } catch (cause) {
    throw new ConfigError([`NPC_TLS_CERT/NPC_TLS_KEY: ${(cause as Error).message}`], 'Cannot load TLS files');
  }
}

/**
 * One place that turns errors into the body `{ "error": "..." }`; never a stack. Catalogue errors answer
 * the status of their code; schema violations a 400 naming the field (and the allowed words).
 */
function errorHandler(
  error: FastifyError | AppError,
  request: import('fastify').FastifyRequest,
  reply: import('fastify').FastifyReply,
): void {
  if (error instanceof AppError) {
    const { status, retryAfter, body } = errorResponse(error);
    if (error instanceof Unauthorized)
      void reply.header('www-authenticate', 'Basic realm="npc", charset="UTF-8"');
    if (retryAfter !== undefined) void reply.header('retry-after', retryAfter);
    void reply.code(status).send(body);
    return;
  }
  if (error.validation && error.validation.length > 0) {
    const where = error.validationContext ?? 'body';
    const { message, field, allowed } = describeSchemaError(error.validation, where);
    void reply.code(400).send({ error: message, field: field ?? where, ...(allowed ? { allowed } : {}) });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    void reply.code(status).send({ error: error.message });
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  void reply.code(500).send({ error: 'internal error' });
}
