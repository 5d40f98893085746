/**
 * OpenAPI 3.1 generated from the route schemas (@fastify/swagger), served as YAML at
 * /api/openapi.yaml, and the interactive page at /api/docs (swagger-ui, served from this
 * service: it makes no request elsewhere). The committed copy (openapi.yaml) is checked by a test.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import YAML from 'yaml';
import { API_DESCRIPTION } from './api-description.js';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Plant Reference Service', version: '1.0.0', description: API_DESCRIPTION },
      // Relative: the document is served by the service it describes, so "Try it out" calls the
      // origin the page came from (PUBLIC_URL, or 127.0.0.1:8080 under npm start).
      servers: [{ url: '/', description: 'The service serving this document' }],
      // Reads are public: no credential unless an operation names one.
      security: [{}],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'id',
            description: 'Server-side session created by the OIDC login (/auth/oidc/login).',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token (`plants_pat_...`, created with POST /api/v1/tokens): ' +
              "`Authorization: Bearer <token>`. Acts with its owner's current roles; no Origin check.",
          },
        },
      },
    },
    // A route answering GET and HEAD appears twice; the HEAD operation gets its own operationId.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const item of Object.values(openapiObject.paths ?? {})) {
        const methods = item as Record<string, { operationId?: string } | undefined>;
        const { get, head } = methods;
        if (get?.operationId && head && head.operationId === get.operationId) {
          // A copy: GET and HEAD share one operation object.
          methods.head = { ...head, operationId: get.operationId.replace(/^get/, 'head') };
        }
      }
      return openapiObject;
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}`,
    },
  });
  // swagger-ui hides its routes; its page is an endpoint of this service, so the document lists it.
  app.addHook('onRoute', (route) => {
    if (route.url === '/api/docs' && route.method === 'GET') route.schema = DOCS_PAGE_SCHEMA;
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { url: '/api/openapi.yaml', validatorUrl: null, deepLinking: true },
  });
  let yaml: string | undefined;
  app.get('/api/openapi.yaml', { schema: DOCUMENT_SCHEMA }, (_request, reply) => {
    yaml ??= openApiYaml(app);
    return reply.type('application/yaml; charset=utf-8').send(yaml);
  });
}

const DOCUMENT_SCHEMA = {
  operationId: 'getOpenApiDocument',
  tags: ['documentation'],
  summary: 'This OpenAPI document',
  description: 'OpenAPI 3.1, as YAML with sorted keys; the same text as the committed openapi.yaml.',
  response: {
    200: { description: 'The document.', content: { 'application/yaml': { schema: { type: 'string' } } } },
  },
};

const DOCS_PAGE_SCHEMA = {
  operationId: 'getApiDocs',
  tags: ['documentation'],
  summary: 'Interactive API documentation',
  description: 'The swagger-ui page for this document; its scripts and styles are served under /api/docs/.',
  response: {
    200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

/** The OpenAPI document as YAML with sorted keys, so diffs of the committed copy are readable. */
export function openApiYaml(app: FastifyInstance): string {
  return YAML.stringify(app.swagger(), { sortMapEntries: true, lineWidth: 0, aliasDuplicateObjects: false });
}
