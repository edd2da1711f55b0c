/** The dreams pages in a real browser against a real daemon: run a dream from the page, its report as a diff. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { loggedInPage } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-ui-dream-');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = 'The API server listens on port 8080.';

describe('dreams pages', () => {
  it('runs a dream from the page (the progress stream), then shows its report: the duplicates merged, with the reason', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const dir = tmp();
    mkdirSync(join(dir, '.git'));
    // Two memories saying the same thing: an import folds an active duplicate into the first, so the
    // second comes in archived and is restored (a restore does not merge).
    const r = await d.client.importMemories([
      { content: TEXT, type: 'fact', scope: 'project', project: dir, stable: true, createdAt: '2026-01-01T00:00:00.000Z' },
      { content: 'the api server listens on port 8080', type: 'fact', scope: 'project', project: dir, stable: true, archivedAt: '2026-01-02T00:00:00.000Z' },
    ]);
    expect(r.added).toBe(2);
    const [kept, dup] = await d.client.memories({ project: dir, all: true }).then((ms) => ms.filter((m) => m.project === dir));
    await d.client.memoryAction(dup?.id ?? '', 'restore');
    expect((await d.client.memories({ project: dir })).filter((m) => m.scope === 'project')).toHaveLength(2);

    const { page, url, prefix, problems } = await loggedInPage(browser, d);
    await page.goto(`${url}/dreams`);
    await page.waitForSelector('form.run-dream button[type="submit"]');
    await page.click('form.run-dream button[type="submit"]');
    await page.waitForFunction(() => /\/dreams\/d\d{8}T/.test(location.pathname), { timeout: 30_000 });
    const id = page.url().split('/').pop() ?? '';
    const merge = await page.waitForSelector('li.change.merge');
    const shown = await merge?.evaluate((el) => ({
      from: Array.from(el.querySelectorAll('.from a')).map((a) => a.getAttribute('href')),
      fromText: el.querySelector('.from q')?.textContent,
      to: el.querySelector('.to a')?.getAttribute('href'),
      toText: el.querySelector('.to q')?.textContent,
      reason: el.querySelector('.reason')?.textContent,
    }));
    const report = await d.client.dreamReport(id);
    expect(report.merges).toHaveLength(1);
    expect(shown).toEqual({
      from: [`${prefix}/memories/${dup?.id}`],
      fromText: 'the api server listens on port 8080',
      to: `${prefix}/memories/${kept?.id}`,
      toText: TEXT,
      reason: report.merges[0]?.reason,
    });
    expect(shown?.reason).toContain('the same statement');

    // The list: newest first, with its counts.
    await page.click(`a[href="${prefix}/dreams"]`);
    const row = await page.waitForSelector(`tr[data-dream="${id}"]`);
    expect(await row?.evaluate((el) => Array.from(el.querySelectorAll('td')).map((td) => td.textContent?.trim()))).toEqual([
      id,
      expect.stringMatching(/ago$/),
      'manual',
      expect.any(String),
      '1',
      '0',
      '0',
    ]);
    expect(problems).toEqual([]);
  });

  it('the dry-run box runs a dry run, and its report says so', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    await d.cli(['remember', '--user', 'I prefer tabs.']);
    const { page, url } = await loggedInPage(browser, d);
    await page.goto(`${url}/dreams`);
    await page.waitForSelector('input[name="dryRun"]');
    await page.click('input[name="dryRun"]');
    await page.click('form.run-dream button[type="submit"]');
    await page.waitForFunction(() => /\/dreams\/d\d{8}T/.test(location.pathname), { timeout: 30_000 });
    await page.waitForSelector('h1 .badge');
    expect(await page.$eval('h1 .badge', (el) => el.textContent)).toContain('dry run');
    const [dream] = await d.client.dreams();
    expect(dream?.dryRun).toBe(true);
  });
});
