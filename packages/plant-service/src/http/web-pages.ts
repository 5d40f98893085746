/**
 * The pages for people: the single-page app built from packages/plant-web. Every page path
 * answers the same HTML shell (the app then reads its data from the public API); the shell's
 * `<html lang>` is the language the person chose with the site's switch (cookie `lang`), else
 * the best of German and English for their Accept-Language, else English. The built scripts and
 * styles are served under /assets/ with content-hashed names, so browsers keep them for a year.
 * Without a build (packages/plant-web/dist missing) the pages say how to make one; the API works
 * either way.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { errors } from './route-schemas.js';

/** Where `npm run build -w packages/plant-web` writes the app (same depth from src/ and dist/). */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../plant-web/dist', import.meta.url));

export const LANG_COOKIE = 'lang';
const LANGUAGES = ['en', 'de'] as const;
type Language = (typeof LANGUAGES)[number];

const Slug = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });
// Any kind is a page: one the app does not have says so, as an unknown slug does.
const Kind = Type.Object({ kind: Type.String({ minLength: 1, maxLength: 200 }) });

/** The page paths the app has, with the operation each is documented as. */
const PAGES: { url: string; operationId: string; summary: string; params?: typeof Slug | typeof Kind }[] = [
  { url: '/', operationId: 'getHome', summary: 'Home page (where login and logout land)' },
  { url: '/browse', operationId: 'getBrowsePage', summary: 'Species browser with filters' },
  { url: '/search', operationId: 'getSearchPage', summary: 'Search results' },
  { url: '/species/:slug', operationId: 'getSpeciesPage', summary: 'A species', params: Slug },
  { url: '/families/:slug', operationId: 'getFamilyPage', summary: 'A family', params: Slug },
  { url: '/cultivars/:slug', operationId: 'getCultivarPage', summary: 'A cultivar', params: Slug },
  {
    url: '/guild/:slug',
    operationId: 'getGuildPage',
    summary: 'Guild suggestions for a species',
    params: Slug,
  },
  { url: '/check', operationId: 'getCheckPage', summary: 'Check a plant list' },
  { url: '/sow', operationId: 'getSowPage', summary: 'What to sow this month' },
  { url: '/suppliers', operationId: 'getSuppliersPage', summary: 'All suppliers' },
  { url: '/suppliers/:slug', operationId: 'getSupplierPage', summary: 'A supplier', params: Slug },
  { url: '/new', operationId: 'getNewRecordsPage', summary: 'What an editor can add' },
  {
    url: '/new/:kind',
    operationId: 'getNewRecordPage',
    summary: 'Form that adds a family, species, cultivar or supplier (for editors)',
    params: Kind,
  },
];

const HTML = { 'text/html': { schema: { type: 'string' } } };

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plants</title></head>
<body><main><h1>Plants</h1>
<p>The web pages are not built. Run <code>npm run build -w packages/plant-web</code> (or <code>npm start</code>).</p>
<p><a href="/api/docs">API documentation</a></p></main></body></html>
`;

/** The language of the page: the remembered choice, else Accept-Language, else English. */
export function pageLanguage(request: FastifyRequest): Language {
  const chosen = request.cookies?.[LANG_COOKIE];
  if (chosen === 'de' || chosen === 'en') return chosen;
  const best = new Negotiator(request.raw).language([...LANGUAGES]);
  return best === 'de' ? 'de' : 'en';
}

function readShell(distDir: string): string | undefined {
  try {
    return readFileSync(`${distDir}/index.html`, 'utf8');
  } catch {
    return undefined;
  }
}

export async function registerWebPages(app: FastifyInstance, distDir = WEB_DIST_DIR): Promise<void> {
  const shell = readShell(distDir);
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    const lang = pageLanguage(request);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie, Accept-Language');
    return reply.send((shell ?? NOT_BUILT).replace(/<html lang="[a-z]+">/, `<html lang="${lang}">`));
  };

  for (const { url, operationId, summary, params } of PAGES) {
    app.get(
      url,
      {
        schema: {
          operationId,
          tags: ['pages'],
          summary,
          description:
            'An HTML page of the site for people (a single-page app that reads this API). `<html lang>`: ' +
            `cookie \`${LANG_COOKIE}\` (de or en, set by the language switch), else the better of de and en for ` +
            'Accept-Language, else en. An unknown slug is a 200 page that says it was not found.' +
            (params === Kind ? ' So is an unknown kind.' : ''),
          ...(params ? { params } : {}),
          // 400: a malformed slug, or a NUL character anywhere in the query.
          response: { 200: { description: 'The HTML page.', content: HTML }, ...errors(400) },
        },
      },
      page,
    );
  }

  if (shell !== undefined) {
    await app.register(fastifyStatic, {
      root: `${distDir}/assets`,
      serve: false,
      maxAge: '365d',
      immutable: true,
      // text/javascript (RFC 9239) rather than application/javascript: it is the registered type,
      // and the compression layer compresses text/* bodies.
      setHeaders: (res, path) => {
        if (path.endsWith('.js')) res.header('content-type', 'text/javascript; charset=utf-8');
      },
    });
  }
  app.get(
    '/assets/:file',
    {
      schema: {
        operationId: 'getWebAsset',
        tags: ['pages'],
        summary: "A script or style sheet of the site's pages",
        description: 'Content-hashed file names: cached for a year (immutable).',
        params: Type.Object({
          file: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\w-]+(\\.[\\w-]+)+$' }),
        }),
        response: {
          200: {
            description: 'The file.',
            content: {
              'text/javascript': { schema: { type: 'string' } },
              'text/css': { schema: { type: 'string' } },
            },
          },
          304: { description: 'Not modified (If-None-Match or If-Modified-Since).', type: 'null' },
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      if (shell === undefined) return reply.callNotFound();
      return reply.sendFile((request.params as { file: string }).file);
    },
  );
}
