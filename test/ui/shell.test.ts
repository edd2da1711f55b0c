import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../helpers/browser.js';
import { daemonsPerTest } from '../helpers/daemon.js';
import { openDashboard } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('dashboard in a browser', () => {
  it('logs in with the one-time link, keeps the session in an HttpOnly cookie and shows the app shell', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const task = await d.client.run({ command: ['sleep', '30'], cwd: '/tmp', stdin: false, name: 'sleeper' });
    const { url, prefix, port, loginUrl } = await openDashboard(d);
    const { page, problems } = await newPage(browser);
    await page.goto(loginUrl);
    // The token left the address bar (303 to the app's /, under its private prefix).
    expect(page.url()).toBe(`${url}/`);
    await page.waitForSelector(`tr[data-task="${task.id}"]`);
    expect(await page.$eval(`tr[data-task="${task.id}"]`, (el) => el.textContent)).toContain('sleeper');
    const cookies = await browser.cookies();
    const session = cookies.find((c) => c.name === `ns_session_${port}`);
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    expect(session?.path).toBe(prefix);
    expect(await page.evaluate(() => document.cookie)).not.toContain('ns_session');
    // The nav's routes render.
    await page.click(`nav a[href="${prefix}/memories"]`);
    await page.waitForSelector('h1');
    expect(await page.$eval('h1', (el) => el.textContent)).toBe('Memories');
    expect(page.url()).toBe(`${url}/memories`);
    // A second visit of the spent link does not log in.
    const other = await browser.createBrowserContext();
    const p2 = await other.newPage();
    const res = await p2.goto(loginUrl);
    expect(res?.status()).toBe(403);
    await other.close();
    expect(problems).toEqual([]);
    await page.close();
  });
});
