/** The memories pages in a real browser against a real daemon: search, edit, pin, forget / restore, provenance, history, recall preview. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IngestSummary, Memory } from '../../src/api/memory.js';
import { launchBrowser } from '../helpers/browser.js';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';
import { loggedInPage, waitForText } from '../helpers/dashboard.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const daemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-ui-mem-');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function project(): string {
  const dir = tmp();
  mkdirSync(join(dir, '.git'));
  return dir;
}

async function cliJson<T>(d: TestDaemon, args: string[]): Promise<T> {
  const r = await d.cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const clickButton = (page: Page, label: string) => page.click(`xpath/.//button[normalize-space(.)="${label}"]`);

describe('memories pages', () => {
  it('search finds a memory; its page edits the text, pins, forgets and restores it, and the history tells each', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const dir = project();
    const id = (await d.cli(['remember', '--project', dir, 'The walrus service deploys from the release branch.'])).stdout.trim();
    await d.cli(['remember', '--project', dir, 'Zebra crossings are drawn in the map layer.']);
    const { page, url, prefix, problems } = await loggedInPage(browser, d);

    await page.goto(`${url}/memories?project=${encodeURIComponent(dir)}`);
    await page.waitForSelector('tbody tr[data-memory]');
    expect(await page.$$eval('tbody tr[data-memory]', (rows) => rows.length)).toBe(2);
    await page.type('input[name="q"]', 'walrus');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-memory]').length === 1);
    expect(await page.$eval('tbody tr[data-memory]', (el) => el.getAttribute('data-memory'))).toBe(id);
    expect(page.url()).toContain('q=walrus');

    await page.click(`a[href="${prefix}/memories/${id}"]`);
    await page.waitForSelector('blockquote.memory-content');
    await clickButton(page, 'Edit');
    // The text field has the focus: keyboard only from here.
    await page.waitForFunction(() => document.activeElement?.id === 'memory-text');
    await page.$eval('textarea', (el) => ((el as HTMLTextAreaElement).value = ''));
    await page.type('textarea', 'The walrus service deploys from the main branch.');
    await clickButton(page, 'Save');
    await waitForText(page, 'blockquote.memory-content', 'main branch');
    const listed = await cliJson<Memory[]>(d, ['memories', 'list', '--project', dir]);
    expect(listed.find((m) => m.id === id)?.content).toBe('The walrus service deploys from the main branch.');
    await waitForText(page, '.timeline li[data-kind="edited"]', 'release branch');

    await clickButton(page, 'Pin');
    await page.waitForSelector('h1 .mem-pinned');
    expect((await d.client.memory(id)).pinned).toBe(true);
    await clickButton(page, 'Forget');
    await page.waitForSelector('h1 .mem-archived');
    expect((await d.client.memory(id)).archivedAt).toBeDefined();
    await clickButton(page, 'Restore');
    await page.waitForFunction(() => !document.querySelector('h1 .mem-archived') && document.querySelector('.timeline li[data-kind="restored"]'));
    expect((await d.client.memory(id)).archivedAt).toBeUndefined();
    const kinds = await page.$$eval('.timeline li', (lis) => lis.map((li) => li.getAttribute('data-kind')));
    expect(kinds).toEqual(['created', 'edited', 'pinned', 'forgotten', 'restored']);
    expect(problems).toEqual([]);
  });

  it('shows where an ingested memory came from (the message in place, its line and neighbours) and a supersession in its history', async () => {
    const d = daemon({ ui: { port: 0 }, memory: { extractor: 'heuristic' } });
    await d.start();
    const dir = project();
    const first = join(dir, 'a.jsonl');
    writeClaudeTranscript(
      first,
      [
        { role: 'user', text: 'Can you look at the failing build?', id: 'u0' },
        { role: 'assistant', text: 'Sure, looking at the build output now.', id: 'a0' },
        { role: 'user', text: 'The acme-api repo always uses pnpm as its package manager.', id: 'u1' },
        { role: 'assistant', text: 'Noted, I will use pnpm for installs.', id: 'a1' },
      ],
      { sessionId: 'sess-a', cwd: dir, start: '2026-05-01T09:00:00Z' },
    );
    writeClaudeTranscript(join(dir, 'b.jsonl'), [{ role: 'user', text: 'The acme-api repo always uses yarn as its package manager.', id: 'p3' }], {
      sessionId: 'sess-b',
      cwd: dir,
      start: '2026-05-03T09:00:00Z',
    });
    const a = await cliJson<IngestSummary>(d, ['ingest', first]);
    const b = await cliJson<IngestSummary>(d, ['ingest', join(dir, 'b.jsonl')]);
    const pnpm = a.added.find((m) => m.content.includes('pnpm')) as Memory;
    const yarn = b.added[0] as Memory;
    expect(b.superseded.map((m) => m.id)).toEqual([pnpm.id]);
    const { page, url, prefix, problems } = await loggedInPage(browser, d);

    await page.goto(`${url}/memories/${pnpm.id}`);
    await page.waitForSelector('.source-msg[data-message="u1"]');
    const source = await page.$eval('.source[data-session="sess-a"]', (el) => ({
      path: el.querySelector('code.path')?.textContent,
      line: el.querySelector('.line-no')?.textContent,
      said: el.querySelector('li.said')?.textContent,
      neighbours: Array.from(el.querySelectorAll('li.neighbour')).map((n) => n.textContent),
    }));
    expect(source.path).toBe(first);
    expect(source.line).toBe('line 3');
    expect(source.said).toContain('The acme-api repo always uses pnpm as its package manager.');
    expect(source.neighbours).toEqual([
      'user Can you look at the failing build?',
      'assistant Sure, looking at the build output now.',
      'assistant Noted, I will use pnpm for installs.',
    ]);
    expect(await page.$eval('h1', (el) => el.textContent)).toContain('superseded');

    const superseded = await page.waitForSelector('.timeline li[data-kind="superseded"]');
    expect(await superseded?.evaluate((el) => el.textContent)).toContain(yarn.content);
    await page.click(`.timeline li[data-kind="superseded"] a[href="${prefix}/memories/${yarn.id}"]`);
    await page.waitForSelector('.timeline li[data-kind="supersedes"]');
    expect(await page.$eval('blockquote.memory-content', (el) => el.textContent)).toBe(yarn.content);
    expect(await page.$eval('.timeline li[data-kind="supersedes"]', (el) => el.textContent)).toContain(pnpm.content);
    expect(problems).toEqual([]);
  });

  it('recall preview shows exactly the block `nightshift recall --format markdown` prints for the project and budget', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const dir = project();
    for (let i = 0; i < 12; i++)
      await d.cli([
        'remember',
        '--project',
        dir,
        '--type',
        i % 2 ? 'fact' : 'decision',
        `Rule ${i}: the ${i}th service keeps its own schema migrations in db/${i}.`,
      ]);
    await d.cli(['remember', '--user', '--type', 'preference', 'I prefer small pull requests.']);
    const { page, url, problems } = await loggedInPage(browser, d);
    await page.goto(`${url}/memories/recall?project=${encodeURIComponent(dir)}`);
    await page.waitForSelector('pre.recall-block');
    // A smaller budget through the form: fewer items.
    const all = await page.$$eval('table.recall-items tbody tr', (rows) => rows.length);
    await page.$eval('input[name="budget"]', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('input[name="budget"]', '120');
    await clickButton(page, 'Preview');
    await page.waitForFunction((n: number) => document.querySelectorAll('table.recall-items tbody tr').length < n, {}, all);
    expect(page.url()).toContain('budget=120');
    const shown = await page.$eval('pre.recall-block', (el) => el.textContent);
    const cli = await d.cli(['recall', '--project', dir, '--budget', '120', '--format', 'markdown']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(shown).toBe(cli.stdout.replace(/\n$/, ''));
    const tokens = await page.$$eval('table.recall-items tbody td.num:nth-of-type(4)', (tds) => tds.map((td) => Number(td.textContent)));
    const api = await d.client.recall({ project: dir, budget: 120 });
    expect(tokens).toEqual(api.items.map((i) => i.tokens));
    expect(problems).toEqual([]);
  });
});
