import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/tables.js';
import { ImageSchema } from '../../src/resources/images/schemas.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { gif, jpeg, png, pngHeader, rotatedJpeg, webp } from '../helpers/storage-images.js';
import { multipartForm } from '../helpers/storage-multipart.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

const MAX_BYTES = 200_000;

let t: TestApp;
let dir: string;
let store: FilesystemStore;
let writer: string;
let admin: string;
let upload: ReturnType<typeof uploader>;
let make: ReturnType<typeof fixtures>;
let family: { id: string; slug: string };
let tomato: { id: string; slug: string };
let photo: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-images-api-'));
  store = new FilesystemStore(path.join(dir, 'images'));
  t = await createTestApp({ IMAGE_MAX_BYTES: String(MAX_BYTES) }, { store });
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  upload = uploader(t, writer);
  make = fixtures(t, writer);
  family = await make.family('Solanaceae');
  tomato = await make.species(family.id, 'Solanum lycopersicum');
  photo = await jpeg(400, 300);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const speciesFields = (species: { id: string }, extra: Record<string, string> = {}) => ({
  entity_type: 'species',
  entity_id: species.id,
  ...extra,
});
const list = async (type: string, id: string) =>
  (await t.app.inject({ url: `/api/v1/images/${type}/${id}` })).json();
const remove = (id: string, cookie = admin) =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/images/${id}`, headers: { cookie } });
const recordCount = async (entityId: string) =>
  (await t.database.db.select().from(images).where(eq(images.entity_id, entityId))).length;

describe('uploading images', () => {
  it('stores the file under <entity_type>/<entity_id>/<id>.<ext> and returns the record; the first becomes primary', async () => {
    const res = await upload(
      speciesFields(tomato, {
        caption: 'Ripe fruit',
        source_url: 'https://example.org/tomato',
        license: 'CC BY 4.0',
      }),
      photo,
    );
    expect(res.statusCode, res.body).toBe(200);
    const image = res.json();
    expect(Object.keys(image).sort()).toEqual(Object.keys(ImageSchema.properties).sort());
    expect(image).toMatchObject({
      entity_type: 'species',
      entity_id: tomato.id,
      store_key: `species/${tomato.id}/${image.id}.jpg`,
      caption: 'Ripe fruit',
      source_url: 'https://example.org/tomato',
      license: 'CC BY 4.0',
      is_primary: true,
      content_type: 'image/jpeg',
      byte_size: photo.length,
      width: 400,
      height: 300,
    });
    expect(await storedKeys(store)).toEqual([image.store_key]);
    const species = (await t.app.inject({ url: `/api/v1/species/${tomato.slug}` })).json();
    expect(species.primary_image_key).toBe(image.store_key);
  });

  it('takes the type from the bytes, not the declared type or file name', async () => {
    const res = await upload(speciesFields(tomato), await png(40, 30), 'holiday.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ content_type: 'image/png', width: 40, height: 30, is_primary: false });
    expect(res.json().store_key).toMatch(/\.png$/);
    const asWebp = await upload(speciesFields(tomato), await webp(20, 10), 'x.png', 'image/png');
    expect(asWebp.json()).toMatchObject({ content_type: 'image/webp', width: 20, height: 10 });
  });

  it('records the displayed size of a JPEG with an EXIF rotation', async () => {
    const res = await upload(speciesFields(tomato), await rotatedJpeg());
    expect(res.json()).toMatchObject({ width: 300, height: 400 });
  });

  it.each([
    ['a GIF', () => gif(), /image\/gif/],
    ['text', async () => Buffer.from('just some text, not an image at all'), /not a recognised image/],
  ])('refuses %s with 415 and keeps nothing', async (_, data, message) => {
    const before = await storedKeys(store);
    const res = await upload(speciesFields(tomato), await data(), 'photo.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().error).toMatch(message);
    expect(await storedKeys(store)).toEqual(before);
  });

  it('refuses a file over IMAGE_MAX_BYTES with 413 and keeps nothing', async () => {
    const before = await storedKeys(store);
    const count = await recordCount(tomato.id);
    // A valid JPEG followed by junk: the type and size are fine, the length is not.
    const res = await upload(speciesFields(tomato), Buffer.concat([photo, randomBytes(MAX_BYTES)]));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ field: 'file', limit: MAX_BYTES });
    expect(await storedKeys(store)).toEqual(before);
    expect(await recordCount(tomato.id)).toBe(count);
  });

  it('answers 413 while the body is still arriving (the upload is streamed, not buffered)', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const boundary = 'streamed-boundary';
      const { port } = new URL(address);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/images',
          headers: {
            cookie: writer,
            origin: t.config.auth.publicUrl,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'transfer-encoding': 'chunked',
          },
        });
        req.on('response', (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        });
        req.on('error', reject);
        const part = (name: string, value: string) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        req.write(part('entity_type', 'species') + part('entity_id', tomato.id));
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\n` +
            'Content-Type: image/jpeg\r\n\r\n',
        );
        req.write(photo);
        req.write(randomBytes(MAX_BYTES));
        // The request is never finished: only a streaming limit can answer it.
      });
      expect(status).toBe(413);
    } finally {
      await t.app.server.close();
    }
  });

  it('refuses more than 50 megapixels with 400, from the header', async () => {
    const res = await upload(speciesFields(tomato), pngHeader(10_000, 5_001), 'huge.png', 'image/png');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatch(/10000×5001 pixels is more than 50 megapixels/);
    expect(res.json().field).toBe('file');
  });

  it('refuses a file that starts like an image but has no readable header', async () => {
    // A JPEG cut off before its frame header.
    const res = await upload(speciesFields(tomato), photo.subarray(0, 40));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('file: not a valid JPEG image (header incomplete)');
    const corrupt = Buffer.concat([photo.subarray(0, 20), Buffer.alloc(200, 0x11)]);
    const res2 = await upload(speciesFields(tomato), corrupt);
    expect(res2.statusCode, res2.body).toBe(400);
    expect(res2.json().error).toMatch(/^file: not a valid JPEG image \(corrupt JPEG/);
  });

  it('decodes the whole upload: pixel data cut short or corrupt after a valid header is a 400, nothing kept', async () => {
    const whole = await png(300, 200);
    const before = await storedKeys(store);
    for (const [file, name] of [
      [whole.subarray(0, Math.floor(whole.length * 0.6)), 'cut.png'],
      [Buffer.concat([pngHeader(40, 30), Buffer.alloc(4_000, 0x33)]), 'garbage.png'],
      [photo.subarray(0, Math.floor(photo.length * 0.7)), 'cut.jpg'],
    ] as const) {
      const res = await upload(speciesFields(tomato), file, name, 'image/png');
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().field).toBe('file');
      expect(res.json().error).toMatch(/^file: not a decodable (PNG|JPEG) image \(.+\)$/);
    }
    expect(await storedKeys(store)).toEqual(before);
    expect((await upload(speciesFields(tomato), whole, 'whole.png', 'image/png')).statusCode).toBe(200);
  });

  it.each([
    [{ entity_id: randomUUID() }, 'entity_type: is required'],
    [{ entity_type: 'species' }, 'entity_id: is required'],
    [
      { entity_type: 'genus', entity_id: randomUUID() },
      'entity_type: must be one of: family, species, cultivar',
    ],
    [{ entity_type: 'species', entity_id: 'tomato' }, 'entity_id: must match format "uuid"'],
    [{ entity_type: 'species', entity_id: randomUUID(), is_primary: 'yes' }, 'is_primary: must be one of'],
    [{ entity_type: 'species', entity_id: randomUUID(), source_url: 'not a url' }, 'source_url: must '],
    [{ entity_type: 'species', entity_id: randomUUID(), colour: 'red' }, 'colour: is not a known field'],
  ])('refuses malformed fields %j with 400 naming them', async (fields, message) => {
    const res = await upload(fields, photo);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
  });

  it('refuses a form without a file, with the file not last, or the file under another name', async () => {
    const fields = [
      { name: 'entity_type', value: 'species' },
      { name: 'entity_id', value: tomato.id },
    ];
    const send = (form: ReturnType<typeof multipartForm>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/images',
        headers: { cookie: writer, ...form.headers },
        payload: form.payload,
      });
    const before = await storedKeys(store);
    const count = await recordCount(tomato.id);

    const noFile = await send(multipartForm(fields));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error).toBe('file: is required');

    const fileFirst = await send(
      multipartForm([
        ...fields,
        { name: 'file', filename: 'a.jpg', data: photo },
        { name: 'caption', value: 'late' },
      ]),
    );
    expect(fileFirst.statusCode).toBe(400);
    expect(fileFirst.json().error).toBe('caption: the file must be the last part of the form');

    const otherName = await send(
      multipartForm([...fields, { name: 'image', filename: 'a.jpg', data: photo }]),
    );
    expect(otherName.statusCode).toBe(400);
    expect(otherName.json().error).toMatch(/^image: is not a known field/);

    const twice = await send(multipartForm([...fields, { name: 'entity_type', value: 'family' }]));
    expect(twice.json().error).toBe('entity_type: given more than once');

    const empty = await send(
      multipartForm([...fields, { name: 'file', filename: 'a.jpg', data: Buffer.alloc(0) }]),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('file: is empty');

    expect(await storedKeys(store)).toEqual(before);
    expect(await recordCount(tomato.id)).toBe(count);
  });

  it('answers 404 for a record that does not exist', async () => {
    const res = await upload({ entity_type: 'cultivar', entity_id: tomato.id }, photo);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error).toBe(`cultivar ${tomato.id} not found`);
  });

  it('needs a session, and multipart', async () => {
    const form = multipartForm([{ name: 'entity_type', value: 'species' }]);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/images', ...form });
    expect(anonymous.statusCode).toBe(401);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images',
      headers: { cookie: writer },
      payload: { entity_type: 'species', entity_id: tomato.id },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().error).toMatch(/multipart\/form-data/);
  });
});

describe('primary images and lists', () => {
  let carrot: { id: string; slug: string };
  let ids: string[];

  beforeAll(async () => {
    const apiaceae = await make.family('Apiaceae');
    carrot = await make.species(apiaceae.id, 'Daucus carota');
    ids = [];
    const extras: Record<string, string>[] = [{}, { is_primary: 'false' }, { is_primary: '0', caption: '' }];
    for (const extra of extras) {
      const res = await upload(speciesFields(carrot, extra), photo);
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id);
    }
  });

  it('lists primary first, then newest; empty strings are absent values', async () => {
    const listed = await list('species', carrot.id);
    expect(listed.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(listed.map((i: { is_primary: boolean }) => i.is_primary)).toEqual([true, false, false]);
    expect(listed[1].caption).toBeNull();
  });

  it('moves the primary flag and primary_image_key to an upload with is_primary', async () => {
    const res = await upload(speciesFields(carrot, { is_primary: '1' }), photo);
    const image = res.json();
    expect(image.is_primary).toBe(true);
    ids.push(image.id);
    const listed = await list('species', carrot.id);
    expect(listed.map((i: { id: string }) => i.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(listed.filter((i: { is_primary: boolean }) => i.is_primary)).toHaveLength(1);
    const species = (await t.app.inject({ url: `/api/v1/species/${carrot.id}` })).json();
    expect(species.primary_image_key).toBe(image.store_key);
    const again = await upload(speciesFields(carrot, { is_primary: 'true' }), photo);
    ids.push(again.json().id);
    expect((await list('species', carrot.id))[0].id).toBe(again.json().id);
  });

  it('deleting the primary promotes the newest remaining image; the last clears primary_image_key', async () => {
    const primary = (await list('species', carrot.id))[0];
    expect((await remove(primary.id)).json()).toEqual({ deleted: true });
    expect(await store.head(primary.store_key)).toBeUndefined();
    let listed = await list('species', carrot.id);
    // ids[3] was uploaded after ids[0..2]: the newest remaining.
    expect(listed[0]).toMatchObject({ id: ids[3], is_primary: true });
    let species = (await t.app.inject({ url: `/api/v1/species/${carrot.id}` })).json();
    expect(species.primary_image_key).toBe(listed[0].store_key);

    // Deleting a non-primary changes nothing else.
    expect((await remove(ids[1]!)).statusCode).toBe(200);
    expect((await list('species', carrot.id))[0].id).toBe(ids[3]);

    for (const image of await list('species', carrot.id))
      expect((await remove(image.id)).statusCode).toBe(200);
    listed = await list('species', carrot.id);
    expect(listed).toEqual([]);
    species = (await t.app.inject({ url: `/api/v1/species/${carrot.id}` })).json();
    expect(species.primary_image_key).toBeNull();
    expect(await storedKeys(store, `species/${carrot.id}/`)).toEqual([]);
  });

  it('delete: admin only, 404 for an unknown image, 400 for a malformed id', async () => {
    const res = await upload(speciesFields(carrot), photo);
    expect((await remove(res.json().id, writer)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/images/${res.json().id}` })).statusCode,
    ).toBe(401);
    expect((await remove(randomUUID())).statusCode).toBe(404);
    expect((await remove('nope')).statusCode).toBe(400);
  });

  it('list: 400 for an invalid entity type or uuid, [] for an unknown record', async () => {
    expect((await t.app.inject({ url: `/api/v1/images/genus/${carrot.id}` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/images/species/carrot' })).statusCode).toBe(400);
    expect(await list('family', randomUUID())).toEqual([]);
  });

  it('a family’s primary is the flag alone; cultivars carry primary_image_key', async () => {
    const fam = await make.family('Brassicaceae');
    const first = (await upload({ entity_type: 'family', entity_id: fam.id }, photo)).json();
    expect(first.is_primary).toBe(true);
    const familyRecord = (await t.app.inject({ url: `/api/v1/families/${fam.id}` })).json();
    expect(familyRecord).not.toHaveProperty('primary_image_key');

    const cultivar = await make.cultivar(carrot.id, 'Nantaise');
    const image = (await upload({ entity_type: 'cultivar', entity_id: cultivar.id }, photo)).json();
    const cultivarRecord = (await t.app.inject({ url: `/api/v1/cultivars/${cultivar.slug}` })).json();
    expect(cultivarRecord.primary_image_key).toBe(image.store_key);
  });

  it('companions carry each species’ primary image key', async () => {
    const bean = await make.species(family.id, 'Phaseolus vulgaris');
    const beanImage = (await upload(speciesFields(bean), photo)).json();
    await make.companion(tomato.id, bean.id);
    const pair = (await t.app.inject({ url: '/api/v1/companions' }))
      .json()
      .find((c: { species_b_id: string; species_a_id: string }) =>
        [c.species_a_id, c.species_b_id].includes(bean.id),
      );
    const tomatoKey = (await t.app.inject({ url: `/api/v1/species/${tomato.id}` })).json().primary_image_key;
    const images =
      pair.species_a_id === bean.id
        ? [pair.species_a_image, pair.species_b_image]
        : [pair.species_b_image, pair.species_a_image];
    expect(images).toEqual([beanImage.store_key, tomatoKey]);
  });
});

describe('deleting a record removes its images', () => {
  it('cultivar, species and family: records, files and resized copies', async () => {
    const fam = await make.family('Rosaceae');
    const apple = await make.species(fam.id, 'Malus domestica');
    const cultivar = await make.cultivar(apple.id, 'Boskoop');
    const uploads = [
      { entity_type: 'family', entity_id: fam.id },
      { entity_type: 'species', entity_id: apple.id },
      { entity_type: 'cultivar', entity_id: cultivar.id },
    ];
    for (const fields of uploads) {
      for (let i = 0; i < 2; i++) {
        const res = await upload(fields, photo);
        expect(res.statusCode, res.body).toBe(200);
        // A resized copy, kept in the store beside the original.
        expect((await t.app.inject({ url: `/img/${res.json().store_key}?w=160` })).statusCode).toBe(200);
      }
    }
    expect(await storedKeys(store, `cultivar/${cultivar.id}/`)).toHaveLength(4);

    const del = (url: string) => t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } });
    expect((await del(`/api/v1/cultivars/${cultivar.slug}`)).statusCode).toBe(200);
    expect(await storedKeys(store, `cultivar/${cultivar.id}/`)).toEqual([]);
    expect(await list('cultivar', cultivar.id)).toEqual([]);
    expect(await recordCount(cultivar.id)).toBe(0);

    expect((await del(`/api/v1/species/${apple.slug}`)).statusCode).toBe(200);
    expect(await storedKeys(store, `species/${apple.id}/`)).toEqual([]);
    expect(await recordCount(apple.id)).toBe(0);

    expect((await del(`/api/v1/families/${fam.slug}`)).statusCode).toBe(200);
    expect(await storedKeys(store, `family/${fam.id}/`)).toEqual([]);
    expect(await recordCount(fam.id)).toBe(0);
  });

  it('a refused delete (409) keeps the images', async () => {
    const fam = await make.family('Fabaceae');
    await make.species(fam.id, 'Vicia faba');
    const image = (await upload({ entity_type: 'family', entity_id: fam.id }, photo)).json();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${fam.slug}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(409);
    expect(await store.head(image.store_key)).toBeDefined();
    expect(await recordCount(fam.id)).toBe(1);
  });
});
