/**
 * The session cookie reaches its own dashboard only. Browsers send a cookie for 127.0.0.1 to every
 * port on it, so the cookie's Path (the dashboard's private prefix) is what keeps it from another
 * local server; its name (with the port) keeps two dashboards in one browser from replacing each
 * other's session.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { daemonsPerTest } from '../helpers/daemon.js';
import { loggedInPage, waitForText } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
const UI = { ui: { port: 0 } };
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const servers: Server[] = [];
afterEach(async () => {
  // The browser may still hold a connection open to it: close waits for none.
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.close(r);
          s.closeAllConnections();
        }),
    ),
  );
});

/** Another local server (a dev server, another user's process): what each request it got carried. */
async function otherServer(): Promise<{ origin: string; seen: { path: string; cookie: string | undefined }[] }> {
  const seen: { path: string; cookie: string | undefined }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', cookie: req.headers.cookie });
    // A page that also asks for the paths a dashboard serves, as a curious server would.
    const body = req.url === '/' ? '<p>another local server</p><img src="/v1/tasks"><img src="/assets/app.js"><img src="/login">' : 'ok';
    res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/plain' });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** What the dashboard's API answers a call made from its own page, with what the browser sends. */
const apiStatus = (page: Page, url: string): Promise<number> => page.evaluate(async (u: string) => (await fetch(u)).status, `${url}/v1/tasks`);

describe('the dashboard session cookie', () => {
  it('is not sent to another server on 127.0.0.1 once logged in', async () => {
    const d = daemon(UI);
    await d.start();
    const { page, url, problems } = await loggedInPage(browser, d);
    await page.waitForSelector('nav');
    expect(await apiStatus(page, url)).toBe(200);
    const other = await otherServer();
    for (const path of ['/', '/tasks/1', '/v1/tasks']) await page.goto(`${other.origin}${path}`);
    await page.goto(`${other.origin}/`, { waitUntil: 'networkidle0' });
    expect(other.seen.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/tasks/1', '/v1/tasks', '/assets/app.js', '/login']));
    expect(other.seen.filter((r) => r.cookie !== undefined)).toEqual([]);
    // The dashboard still has its session.
    await page.goto(`${url}/tasks`);
    expect(await apiStatus(page, url)).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps two dashboards (two homes) logged in side by side in one browser', async () => {
    const [a, b] = [daemon(UI), daemon(UI)];
    await Promise.all([a.start(), b.start()]);
    const [ta, tb] = await Promise.all([
      a.client.run({ command: ['sleep', '30'], cwd: '/tmp', stdin: false, name: 'task-of-a' }),
      b.client.run({ command: ['sleep', '30'], cwd: '/tmp', stdin: false, name: 'task-of-b' }),
    ]);
    const A = await loggedInPage(browser, a);
    await waitForText(A.page, `tr[data-task="${ta.id}"]`, 'task-of-a');
    const B = await loggedInPage(browser, b);
    await waitForText(B.page, `tr[data-task="${tb.id}"]`, 'task-of-b');
    // B's login did not replace A's session, nor the other way round: each page still calls its API.
    expect(await apiStatus(A.page, A.url)).toBe(200);
    expect(await apiStatus(B.page, B.url)).toBe(200);
    // A page in a background tab gets no animation frames, which waitForText polls on.
    await A.page.bringToFront();
    await A.page.reload();
    await waitForText(A.page, `tr[data-task="${ta.id}"]`, 'task-of-a');
    expect(await A.page.$('.banner')).toBeNull();
    // A second login to A (a new link) leaves B logged in too.
    const A2 = await loggedInPage(browser, a);
    await A2.page.waitForSelector('nav');
    await B.page.bringToFront();
    expect(await apiStatus(B.page, B.url)).toBe(200);
    expect(await apiStatus(A.page, A.url)).toBe(200);
    expect([...A.problems, ...B.problems, ...A2.problems]).toEqual([]);
    await Promise.all([A.page.close(), B.page.close(), A2.page.close()]);
  });
});
