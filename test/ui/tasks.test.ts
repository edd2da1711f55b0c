import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../helpers/browser.js';
import { daemonsPerTest, until, type TestDaemon } from '../helpers/daemon.js';
import { openDashboard } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A daemon with its dashboard, and a logged-in page. */
async function loggedIn(config: Record<string, unknown> = {}): Promise<{ d: TestDaemon; page: Page; url: string; problems: string[] }> {
  const d = daemon({ ui: { port: 0 }, ...config });
  await d.start();
  const { url, loginUrl } = await openDashboard(d);
  const { page, problems } = await newPage(browser);
  await page.goto(loginUrl);
  return { d, page, url, problems };
}

const outputText = (page: Page) => page.$eval('pre.output', (el) => el.textContent ?? '');

describe('tasks pages', () => {
  it('shows live output of a running task as it is written, with ANSI colours as classes', async () => {
    const { d, page, url, problems } = await loggedIn();
    // Waits for a file before writing more: what appears after that was streamed, not read on open.
    const gate = `${d.home}/go`;
    const script = `printf '\\033[31mred\\033[0m first\\n'; while [ ! -e ${gate} ]; do sleep 0.05; done; for i in 1 2 3; do echo "live line $i"; sleep 0.1; done; sleep 30`;
    const task = await d.client.run({ command: ['sh', '-c', script], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.get(task.id)).outputBytes > 0);
    await page.goto(`${url}/tasks/${task.id}`);
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes('first'));
    expect(await outputText(page)).not.toContain('live line');
    const red = await page.$eval('pre.output .ansi-red-fg', (el) => ({
      text: el.textContent,
      color: getComputedStyle(el).color,
      plain: getComputedStyle(el.parentElement!).color,
    }));
    expect(red.text).toBe('red');
    expect(red.color).not.toBe(red.plain);
    await import('node:fs').then((fs) => fs.writeFileSync(gate, ''));
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes('live line 3'), { timeout: 10_000 });
    expect(await outputText(page)).toBe('red first\nlive line 1\nlive line 2\nlive line 3\n');
    expect(problems).toEqual([]);
  });

  it('sends input to a task waiting at a prompt, shown with an attention badge', async () => {
    const { d, page, url } = await loggedIn({ stallCheckSeconds: 0.2 });
    const task = await d.client.run({
      command: ['sh', '-c', 'printf "your name? "; read x; echo "hello $x"; read y; echo "bye $y"'],
      cwd: '/tmp',
      stallAfterSeconds: 1,
    });
    await page.goto(`${url}/tasks/${task.id}`);
    await page.waitForSelector('.attention-prompt', { timeout: 15_000 });
    await page.type('input[name="input"]', 'Ada');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes('hello Ada'), { timeout: 10_000 });
    // EOF ends the second read with nothing.
    await page.click('xpath/.//button[contains(., "Send EOF")]');
    await until(async () => (await d.client.get(task.id)).status === 'exited');
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes('bye'));
    await page.waitForSelector('.state-ok');
  });

  it('opens a long output at its last 64 KiB and loads earlier chunks by offset on demand', async () => {
    const { d, page, url } = await loggedIn();
    const task = await d.client.run({ command: ['seq', '1', '200000'], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.get(task.id)).status === 'exited');
    await page.goto(`${url}/tasks/${task.id}`);
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.endsWith('200000\n'));
    const shown = await outputText(page);
    expect(shown.length).toBe(64 * 1024);
    await page.click('button.load-earlier');
    await page.waitForFunction((n: number) => (document.querySelector('pre.output')?.textContent?.length ?? 0) > n, {}, shown.length);
    const more = await outputText(page);
    expect(more.length).toBe(128 * 1024);
    expect(more.endsWith(shown)).toBe(true);
  });

  it('kills a running task from its page, and lists tasks a page at a time with filters', async () => {
    const { d, page, url } = await loggedIn();
    const task = await d.client.run({ command: ['sleep', '60'], cwd: '/tmp', stdin: false, name: 'long sleep' });
    await page.goto(`${url}/tasks/${task.id}`);
    await page.waitForSelector('button.danger');
    await page.click('button.danger');
    await until(async () => (await d.client.get(task.id)).status === 'killed');
    await page.waitForFunction(() => document.querySelector('.badge')?.textContent?.startsWith('killed'));
    // 60 finished tasks: the list shows 50 newest first, the next page the rest.
    for (let i = 0; i < 60; i++) await d.client.run({ command: ['true'], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.list(true, { status: 'exited' })).length === 60);
    await page.goto(`${url}/tasks?state=exited`);
    await page.waitForSelector('tbody tr');
    const ids = await page.$$eval('tbody tr', (rows) => rows.map((r) => Number(r.getAttribute('data-task'))));
    expect(ids).toHaveLength(50);
    expect(ids[0]).toBeGreaterThan(ids[49] ?? 0);
    await page.click('xpath/.//button[contains(., "older")]');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 10);
    expect(page.url()).toContain('page=1');
    // Keyboard: j moves the focus to the first task's link.
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('task-link');
  });
});
