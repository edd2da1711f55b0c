/** The sessions pages in a real browser against a real daemon: the list, search, a session's digest and its memories. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IngestSummary } from '../../src/api/memory.js';
import { launchBrowser } from '../helpers/browser.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { loggedInPage } from '../helpers/dashboard.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const daemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-ui-sess-');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('sessions pages', () => {
  it('lists ingested sessions, finds one by what was said, and shows its digest and the memories it gave', async () => {
    const d = daemon({ ui: { port: 0 }, memory: { extractor: 'heuristic' } });
    await d.start();
    const dir = tmp();
    mkdirSync(join(dir, '.git'));
    writeClaudeTranscript(
      join(dir, 'a.jsonl'),
      [
        { role: 'user', text: 'Can you look at the failing flamingo build?', id: 'u0' },
        { role: 'assistant', text: 'Sure, looking at the build output now.', id: 'a0' },
        { role: 'user', text: 'The acme-api repo always uses pnpm as its package manager.', id: 'u1' },
      ],
      { sessionId: 'sess-flamingo', cwd: dir, start: '2026-05-01T09:00:00Z' },
    );
    writeClaudeTranscript(join(dir, 'b.jsonl'), [{ role: 'user', text: 'Please tidy the README headings.', id: 'v0' }], {
      sessionId: 'sess-readme',
      cwd: dir,
      start: '2026-05-02T09:00:00Z',
    });
    const a = JSON.parse((await d.cli(['ingest', join(dir, 'a.jsonl'), '--json'])).stdout) as IngestSummary;
    await d.cli(['ingest', join(dir, 'b.jsonl'), '--json']);
    expect(a.added.length).toBeGreaterThan(0);
    const { page, url, problems } = await loggedInPage(browser, d);

    await page.goto(`${url}/sessions`);
    await page.waitForSelector('tr[data-session="sess-flamingo"]');
    // Latest first.
    expect(await page.$$eval('tbody tr[data-session]', (rows) => rows.map((r) => r.getAttribute('data-session')))).toEqual(['sess-readme', 'sess-flamingo']);
    const cells = await page.$$eval('tr[data-session="sess-flamingo"] td', (tds) => tds.map((td) => td.textContent?.trim()));
    expect(cells.slice(1, 5)).toEqual([dir, 'ingested', '3', String(a.added.length)]);
    expect(cells[7]).toBe('heuristic');

    await page.type('input[name="q"]', 'flamingo');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-session]').length === 1);
    expect(await page.$eval('tbody tr[data-session]', (el) => el.getAttribute('data-session'))).toBe('sess-flamingo');
    expect(await page.$eval('tr.hits', (el) => el.textContent)).toContain('failing flamingo build');

    await page.click('a.session-link');
    await page.waitForSelector('.digest');
    expect(await page.$eval('.digest-part[aria-label="Asked"]', (el) => el.textContent)).toContain('Can you look at the failing flamingo build?');
    await page.waitForSelector('ul.session-memories li');
    const listed = await page.$$eval('ul.session-memories li', (lis) => lis.map((li) => li.getAttribute('data-memory')));
    expect(listed.sort()).toEqual(a.added.map((m) => m.id).sort());
    expect(problems).toEqual([]);
  });
});
