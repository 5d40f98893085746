/**
 * A record's history on the site, in headless Chromium: an editor edits a family giving a reason
 * and finds the change in its history (field, before, after, who, when, reason), in English and in
 * German; reverts it; meets the 409 of a change later edits touched and reverts it anyway; a
 * reader sees the history without a revert control. Axe finds no serious violation in the open
 * history.
 */
import { describe, expect, it } from 'vitest';
import { closeClean, expectNoSeriousViolations, SLOW, useSite } from './web-pages-browser.js';

const site = useSite();
const { api, open } = site;

describe('record history in headless Chromium', () => {
  it('shows an edit with its reason, reverts it, and overwrites later changes only when asked', {
    timeout: SLOW,
  }, async () => {
    const { context, page, problems } = await open();
    await site.signIn(page, problems, 'editor', '/families/acoraceae');
    const before = await api<{ name_en: string }>('/api/v1/families/acoraceae');

    const edit = async (nameEn: string, reason: string) => {
      await page.click('.edit-controls button[aria-expanded]');
      await page.fill('#family-edit-name_en', nameEn);
      await page.fill('#family-edit-reason', reason);
      await page.click('main .edit-form button[type=submit]');
      await expect.poll(() => page.locator('main h1').textContent()).toContain(nameEn);
    };
    await edit('Sweet flags', 'Plural, as the other families');

    await page.click('.history button[aria-expanded]');
    const newest = page.locator('.history .change').first();
    await expect.poll(() => newest.locator('h3').textContent()).toMatch(/^Changed · /);
    expect(await newest.locator('.change-meta dd').first().textContent()).toBe('Demo Editor');
    expect(await newest.locator('.change-reason').textContent()).toBe('Plural, as the other families');
    expect(await newest.locator('[data-field=name_en] th').textContent()).toBe('English name');
    expect(await newest.locator('[data-field=name_en] td').allTextContents()).toEqual([
      before.name_en,
      'Sweet flags',
    ]);
    expect(await newest.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expectNoSeriousViolations(page, 'family page, history open');

    // Revert: the name is back, and the history's newest entry names the change it reverted.
    await newest.locator('button.revert').click();
    await expect.poll(() => page.locator('main h1').textContent()).toContain(before.name_en);
    await expect.poll(() => newest.locator('.change-meta').textContent()).toContain('reverts change');
    expect((await api<{ name_en: string }>('/api/v1/families/acoraceae')).name_en).toBe(before.name_en);

    // A change that later edits touched: refused naming the field, then reverted on request.
    await edit('Calamus family', 'first');
    await edit('Calamus relatives', 'second');
    const older = page.locator('.history .change').nth(1);
    await expect.poll(() => older.locator('.change-reason').textContent()).toBe('first');
    await older.locator('button.revert').click();
    await expect.poll(() => older.locator('.field-error').textContent()).toContain('name_en');
    problems.splice(0, problems.length, ...problems.filter((p) => !/status of 409/.test(p)));
    // Overwriting puts back the value before the reverted change, over the later one.
    await older.locator('button.overwrite').click();
    await expect.poll(() => page.locator('main h1').textContent()).toContain(before.name_en);
    expect((await api<{ name_en: string }>('/api/v1/families/acoraceae')).name_en).toBe(before.name_en);
    await closeClean(context, problems);
  });

  // The history the first test wrote: its last entry is an update.
  it('shows a reader the history in German, without a revert control', { timeout: SLOW }, async () => {
    const { context, page, problems } = await open({ locale: 'de-DE' });
    await page.goto(`${site.url}/families/acoraceae`);
    await page.click('.history button[aria-expanded]');
    await expect.poll(() => page.locator('.history h2').textContent()).toBe('Änderungsverlauf');
    await page.locator('.history .change').first().waitFor();
    expect(
      await page.locator('.history .change-fields').first().locator('thead th').allTextContents(),
    ).toEqual(['Feld', 'Vorher', 'Nachher']);
    expect(await page.locator('.history .change h3').first().textContent()).toMatch(/^Geändert · /);
    expect(await page.locator('.history button.revert').count()).toBe(0);
    await expectNoSeriousViolations(page, 'family page, history open, German');
    await closeClean(context, problems);
  });
});
