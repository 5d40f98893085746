/**
 * Writes the OpenAPI document generated from the route schemas to openapi.yaml, so every API change
 * shows in review; test/web-server/openapi.test.ts fails when the committed file drifts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openapiDocument, packageRoot } from './openapi-document.js';

const file = join(packageRoot, 'openapi.yaml');
await writeFile(file, await openapiDocument());
console.log(`wrote ${file}`);
