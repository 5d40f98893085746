/** Writes the OpenAPI document generated from the route schemas to openapi.yaml (committed). */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { newPglite, openPglite } from '../db/client.js';
import { openApiYaml } from '../http/openapi.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

// Building the app needs a database handle; nothing is queried, so an in-memory PGlite does.
const database = await openPglite({ instance: await newPglite() });
const app = await buildApp({ config: loadConfig({}), database });
await app.ready();
await writeFile(OPENAPI_FILE, openApiYaml(app));
await app.close();
await database.close();
console.log(`wrote ${OPENAPI_FILE}`);
