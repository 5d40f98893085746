/**
 * Adding and editing records through the site's forms, in headless Chromium: an editor adds a
 * family, a species in it and a cultivar of it and lands on each new page; edits a supplier and
 * sees the API's 400 beside the field it names; an administrator deletes a supplier after a
 * confirmation; a reader is offered none of it. Every write goes from the page through the public
 * API (session cookie and Origin, as the CSRF rule asks); the API's answers are checked here too.
 * Writes the screenshots of the supplier pages and the add pages at desktop and phone width.
 */
import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  closeClean,
  DESKTOP,
  expectNoSeriousViolations,
  expectRefusals,
  PHONE,
  SCREENSHOTS,
  SLOW,
  useSite,
} from './web-pages-browser.js';

const site = useSite();
const { api, open } = site;

interface Named {
  id: string;
  slug: string;
  name_en: string | null;
}

describe('adding and editing records in headless Chromium', () => {
  it('lets an editor add a family, a species in it and a cultivar of it, each opening its new page', {
    timeout: SLOW,
  }, async () => {
    const { context, page, problems } = await open();
    await site.signIn(page, problems, 'editor', '/');
    await page.click('header a.new-record');
    await page.waitForURL(`${site.url}/new`);
    await page.click('main a[href="/new/family"]');

    // Nothing filled: the API's 400 names the scientific name, and the form shows it there.
    await page.click('main .edit-form button[type=submit]');
    await expect
      .poll(() => page.locator('#new-family-name_scientific-error').textContent())
      .toMatch(/name_scientific/);
    expectRefusals(problems, 1);

    await page.fill('#new-family-name_scientific', 'Probaceae');
    await page.fill('#new-family-name_en', 'Trial family');
    await page.fill('#new-family-name_de', 'Probegewächse');
    await page.click('main .edit-form button[type=submit]');
    await page.waitForURL(`${site.url}/families/probaceae`);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Trial family Probaceae');
    const family = await api<Named & { name_de: string }>('/api/v1/families/probaceae');
    expect(family).toMatchObject({ name_en: 'Trial family', name_de: 'Probegewächse' });

    // The family page offers a species in this family: the picker comes set to it.
    await page.click('main a[href="/new/species?family=probaceae"]');
    await expect.poll(() => page.locator('#new-species-family_id').inputValue()).toBe(family.id);
    expect(await page.locator('#new-species-family_id option:checked').textContent()).toBe(
      'Probaceae (Trial family)',
    );
    await page.fill('#new-species-name_scientific', 'Probata prima');
    await page.fill('#new-species-name_en', 'First trial plant');
    await page.selectOption('#new-species-plant_layer', 'herb');
    await page.click('main .edit-form button[type=submit]');
    await page.waitForURL(`${site.url}/species/probata-prima`);
    await expect.poll(() => page.locator('main h1 [data-name]').textContent()).toBe('First trial plant');
    expect(await page.locator('[data-field=plant_layer] dd').textContent()).toBe('Herb');
    const species = await api<Named & { family_id: string; plant_layer: string }>(
      '/api/v1/species/probata-prima',
    );
    expect(species).toMatchObject({ family_id: family.id, plant_layer: 'herb' });

    await page.click('main a[href="/new/cultivar?species=probata-prima"]');
    await expect.poll(() => page.locator('#new-cultivar-species_id').inputValue()).toBe(species.id);
    await page.fill('#new-cultivar-name', 'Erstling');
    await page.fill('#new-cultivar-name_de', 'Erstling');
    await page.click('main .edit-form button[type=submit]');
    await page.waitForURL(/\/cultivars\/[^/?]+$/);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Erstling');
    const slug = new URL(page.url()).pathname.split('/').pop();
    const cultivar = await api<{ name: string; species_id: string }>(`/api/v1/cultivars/${slug}`);
    expect(cultivar).toMatchObject({ name: 'Erstling', species_id: species.id });
    expect(
      (await api<{ data: { slug: string }[] }>('/api/v1/cultivars?species=probata-prima')).data.map(
        (c) => c.slug,
      ),
    ).toEqual([slug]);
    await closeClean(context, problems);
  });

  it("lets an editor rename a supplier reached from a cultivar's list; an invalid url is refused beside its field", {
    timeout: SLOW,
  }, async () => {
    const { context, page, problems } = await open();
    await site.signIn(page, problems, 'editor', '/cultivars/beta-vulgaris-gesche');
    await page.click('.where-to-buy a[href="/suppliers/bingenheimer-saatgut-ag"]');
    await page.waitForURL(`${site.url}/suppliers/bingenheimer-saatgut-ag`);
    const before = await api<{ name: string; url: string }>('/api/v1/suppliers/bingenheimer-saatgut-ag');
    await expect.poll(() => page.locator('main h1').textContent()).toBe(before.name);

    await page.click('.edit-controls button[aria-expanded]');
    await page.fill('#supplier-edit-name', 'Bingenheimer Saatgut (Probe)');
    await page.click('.editor .edit-form button[type=submit]');
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Bingenheimer Saatgut (Probe)');
    const renamed = await api<{ name: string; url: string }>('/api/v1/suppliers/bingenheimer-saatgut-ag');
    expect(renamed).toEqual({
      ...before,
      name: 'Bingenheimer Saatgut (Probe)',
      updated_at: expect.any(String),
    });

    await page.click('.edit-controls button[aria-expanded]');
    await page.fill('#supplier-edit-url', 'not a web address');
    await page.click('.editor .edit-form button[type=submit]');
    await expect.poll(() => page.locator('#supplier-edit-url-error').textContent()).toMatch(/url/);
    expect(await page.getAttribute('#supplier-edit-url', 'aria-invalid')).toBe('true');
    expect(await page.locator('.field-error').count()).toBe(1);
    expectRefusals(problems, 1);
    expect((await api<{ url: string }>('/api/v1/suppliers/bingenheimer-saatgut-ag')).url).toBe(before.url);
    await expectNoSeriousViolations(page, 'supplier page, edit form open');
    await closeClean(context, problems);
  });

  it('lets an administrator delete a supplier only after confirming', { timeout: SLOW }, async () => {
    const { context, page, problems } = await open();
    await site.signIn(page, problems, 'admin', '/suppliers/austrosaat');
    await page.click('.edit-controls button.danger');
    await page.locator('[role=alertdialog]').waitFor();
    await page.click('[role=alertdialog] button:not(.danger)');
    expect(await page.locator('[role=alertdialog]').count()).toBe(0);
    expect((await fetch(`${site.url}/api/v1/suppliers/austrosaat`)).status).toBe(200);

    await page.click('.edit-controls button.danger');
    await page.click('[role=alertdialog] button.danger');
    await page.waitForURL(`${site.url}/suppliers`);
    await page.locator('.supplier-list li').first().waitFor();
    expect(await page.locator('.supplier-list a[href="/suppliers/austrosaat"]').count()).toBe(0);
    expect((await fetch(`${site.url}/api/v1/suppliers/austrosaat`)).status).toBe(404);
    await closeClean(context, problems);
  });

  it('offers a signed-in reader no control that adds, edits or deletes', { timeout: SLOW }, async () => {
    const { context, page, problems } = await open();
    await site.signIn(page, problems, 'rita', '/suppliers/arche-noah');
    await expect.poll(() => page.locator('.who').textContent()).toContain('rita');
    for (const path of [
      '/suppliers/arche-noah',
      '/suppliers',
      '/families/apiaceae',
      '/species/daucus-carota',
    ]) {
      await page.goto(`${site.url}${path}`);
      await page.locator('main h1').waitFor();
      // Every request of the page has answered, so controls drawn after late data count too.
      await page.waitForLoadState('networkidle');
      const controls = page.locator(
        'a.new-record, a[href^="/new"], .edit-controls, .editor, .edit-form, button.danger',
      );
      expect(await controls.count(), path).toBe(0);
    }
    for (const path of ['/new', '/new/family', '/new/cultivar?species=daucus-carota']) {
      await page.goto(`${site.url}${path}`);
      await expect
        .poll(() => page.locator('main .notice').textContent(), { message: path })
        .toBe('Only signed-in editors can add records.');
      expect(await page.locator('main form, main a[href^="/new/"]').count(), path).toBe(0);
    }
    await closeClean(context, problems);
  });

  it('has no serious accessibility violation on the supplier pages and the add pages, and writes screenshots', {
    timeout: SLOW * 2,
  }, async () => {
    const pages: [string, string, string][] = [
      ['suppliers', '/suppliers', '.supplier-list li'],
      ['supplier', '/suppliers/arche-noah', '.field-group'],
      ['new-choice', '/new', 'main a[href="/new/family"]'],
      ['new-record', '/new/species?family=apiaceae', '#new-species-family_id'],
    ];
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, problems } = await open({ viewport });
      // Signed in as an editor: the pages as the people who add records see them.
      await site.signIn(page, problems, 'editor', '/');
      for (const [name, path, ready] of pages) {
        await page.goto(`${site.url}${path}`);
        await page.locator(ready).first().waitFor();
        if (viewport === DESKTOP) await expectNoSeriousViolations(page, name);
        const file = new URL(`${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}.png`, SCREENSHOTS);
        await page.screenshot({ path: file.pathname, fullPage: true });
      }
      await closeClean(context, problems);
    }
  });
});
