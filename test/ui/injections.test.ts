/** The session page's injections in a real browser against a real daemon: each injection's items, why and tokens, and "Not useful". */
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InjectionsResponse } from '../../src/api/injections.js';
import { launchBrowser } from '../helpers/browser.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { loggedInPage } from '../helpers/dashboard.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const daemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-ui-inj-');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('session page: what the session was given', () => {
  it('lists each injection with its items, why and tokens; "Not useful" keeps the memory out of that project', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const project = tmp();
    const text = 'Always run the linter before committing.';
    const m = JSON.parse((await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', text, '--json'])).stdout) as { id: string };
    const start = (session: string) =>
      d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: session, cwd: project, source: 'startup', hook_event_name: 'SessionStart' }) });
    expect((await start('sess-inj')).stdout).toContain(text);
    writeClaudeTranscript(join(project, 't.jsonl'), [{ role: 'user', text: 'Please tidy the README headings.' }], { sessionId: 'sess-inj', cwd: project });
    expect((await d.cli(['ingest', join(project, 't.jsonl')])).code).toBe(0);
    const { page, url, problems } = await loggedInPage(browser, d);

    await page.goto(`${url}/sessions/sess-inj`);
    await page.waitForSelector('.injection tr[data-kind="memory"]');
    expect(await page.$eval('#session-injections-h', (el) => el.textContent)).toMatch(/1 injections, \d+ tokens/);
    const row = await page.$eval(`.injection tr[data-item="${m.id}"]`, (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
    expect(row[0]).toContain(text);
    expect(row[2]).toContain('standing instruction');
    expect(Number(row[3])).toBeGreaterThan(0);

    await page.click(`.injection tr[data-item="${m.id}"] button.not-useful`);
    await page.waitForSelector(`.injection tr[data-item="${m.id}"] .rejected`);
    expect((await start('live-2')).stdout).not.toContain(text);
    const ledger = JSON.parse((await d.cli(['injections', '--session', 'live-2', '--json'])).stdout) as InjectionsResponse;
    // A block left with nothing is no injection at all; either way the memory is not in it.
    expect(ledger.injections.flatMap((v) => v.items).some((i) => i.id === m.id)).toBe(false);
    expect(problems).toEqual([]);
  });

  it('"Not useful" stays where it first shows while the record and the memories arrive after it', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const project = tmp();
    const m = JSON.parse((await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Always tag releases.', '--json'])).stdout) as {
      id: string;
    };
    await d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'sess-slow', cwd: project, source: 'startup' }) });
    writeClaudeTranscript(join(project, 't.jsonl'), [{ role: 'user', text: 'We deploy with make ship.' }], { sessionId: 'sess-slow', cwd: project });
    expect((await d.cli(['ingest', join(project, 't.jsonl')])).code).toBe(0);
    const { page, url } = await loggedInPage(browser, d);
    // The record answers late and the session's memories later still: a click aimed at the button
    // as it shows must not land elsewhere once they are in.
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const late = /\/v1\/sessions\/sess-slow/.test(req.url()) ? 300 : /\/v1\/memories\?/.test(req.url()) ? 600 : 0;
      setTimeout(() => void req.continue(), late);
    });
    await page.goto(`${url}/sessions/sess-slow`);
    const button = `.injection tr[data-item="${m.id}"] button.not-useful`;
    const first = await (await page.waitForSelector(button))?.boundingBox();
    await page.waitForSelector('#session-memories-h .muted');
    expect(await (await page.$(button))?.boundingBox()).toEqual(first);
  });

  it('a session known only from its hooks: its id and what it was given, no "no session" error', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const project = tmp();
    const text = 'Always run the formatter before pushing.';
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', text]);
    const start = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'hooks-only', cwd: project, source: 'startup' }) });
    expect(start.stdout).toContain(text);
    const { page, url } = await loggedInPage(browser, d);

    await page.goto(`${url}/sessions/hooks-only`);
    await page.waitForSelector('.injection tr[data-kind="memory"]');
    await page.waitForSelector('.not-ingested');
    expect(await page.$eval('section.session h1', (el) => el.textContent)).toBe('Session hooks-only');
    expect(await page.$eval('section.session', (el) => el.textContent)).not.toMatch(/no session/);
  });
});
