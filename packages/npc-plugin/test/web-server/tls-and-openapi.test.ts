import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/cli/openapi-document.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { packageRoot } from '../helpers/npc-process.js';

const tls = join(packageRoot, 'test', 'fixtures', 'tls');

describe('TLS (NPC_TLS_CERT, NPC_TLS_KEY)', () => {
  it('serves HTTPS with the given certificate', async () => {
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    const app = await buildTestApp(accounts, {
      NPC_TLS_CERT: join(tls, 'cert.pem'),
      NPC_TLS_KEY: join(tls, 'key.pem'),
    });
    try {
      const url = new URL(await app.web.listen());
      expect(url.protocol).toBe('https:');
      const ca = await readFile(join(tls, 'cert.pem'));
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: url.port,
            path: '/npc/status',
            ca,
            headers: { authorization: basic('all', 'pw') },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(JSON.parse(body)).toMatchObject({ plugin: { id: 'npc' }, state: 'offline' });
    } finally {
      await app.close();
    }
  });

  it('stops start-up with a clear message when the files cannot be read', async () => {
    const accounts = await writeAccounts([]);
    await expect(
      buildTestApp(accounts, { NPC_TLS_CERT: '/missing/cert.pem', NPC_TLS_KEY: '/missing/key.pem' }),
    ).rejects.toThrow(/NPC_TLS_CERT\/NPC_TLS_KEY/);
  });
});

describe('OpenAPI document', () => {
  it('is committed as openapi.yaml and matches the routes (run `npm run openapi` after an API change)', async () => {
    const committed = await readFile(join(packageRoot, 'openapi.yaml'), 'utf8');
    expect(await openapiDocument()).toBe(committed);
  });
});
