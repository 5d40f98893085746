/**
 * Images end to end over real HTTP with real sign-ins: OIDC login at the embedded provider, a
 * browser-style multipart upload (fetch's FormData), the public /img read, and the admin delete.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN_GROUP, DEV_EDITOR_GROUP } from '../../src/dev-idp/accounts.js';
import type { TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';
import { jpeg } from '../helpers/storage-images.js';

let rig: LoginRig;
let dataDir: string;
let editor: TestBrowser;
let admin: TestBrowser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'plant-images-e2e-'));
  rig = await startLoginRig({
    env: { DATA_DIR: dataDir, OIDC_ADMIN_GROUPS: DEV_ADMIN_GROUP, OIDC_EDITOR_GROUPS: DEV_EDITOR_GROUP },
  });
  editor = rig.browser();
  admin = rig.browser();
  await rig.signIn(editor, 'editor');
  await rig.signIn(admin, 'admin');
});
afterAll(async () => {
  await rig.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function postJson(browser: TestBrowser, url: string, body: object) {
  const page = await browser.request(`${rig.url}${url}`, {
    method: 'POST',
    headers: { origin: rig.url, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(page.status, page.body).toBe(200);
  return JSON.parse(page.body);
}

describe('images with a signed-in browser', () => {
  it('uploads as the editor, serves to anyone, deletes as the admin only', async () => {
    const family = await postJson(editor, '/api/v1/families', { name_scientific: 'Boraginaceae' });
    const borage = await postJson(editor, '/api/v1/species', {
      family_id: family.id,
      name_scientific: 'Borago officinalis',
    });
    const photo = await jpeg(300, 200);
    const form = new FormData();
    form.append('entity_type', 'species');
    form.append('entity_id', borage.id);
    form.append('caption', 'Blue flowers');
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'borage.jpg');
    const uploaded = await editor.request(`${rig.url}/api/v1/images`, {
      method: 'POST',
      headers: { origin: rig.url },
      body: form,
    });
    expect(uploaded.status, uploaded.body).toBe(200);
    const image = JSON.parse(uploaded.body);
    expect(image).toMatchObject({ caption: 'Blue flowers', is_primary: true, width: 300, height: 200 });

    // Public: no cookie.
    const served = await fetch(`${rig.url}/img/${image.store_key}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    const species = (await (await fetch(`${rig.url}/api/v1/species/${borage.slug}`)).json()) as {
      primary_image_key: string | null;
    };
    expect(species.primary_image_key).toBe(image.store_key);

    const anonymous = await fetch(`${rig.url}/api/v1/images`, { method: 'POST', body: form });
    expect(anonymous.status).toBe(401);

    const del = (browser: TestBrowser) =>
      browser.request(`${rig.url}/api/v1/images/${image.id}`, {
        method: 'DELETE',
        headers: { origin: rig.url },
      });
    expect((await del(editor)).status).toBe(403);
    expect((await del(admin)).status).toBe(200);
    expect((await fetch(`${rig.url}/img/${image.store_key}`)).status).toBe(404);
  });
});
