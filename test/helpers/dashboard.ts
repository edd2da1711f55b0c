import type { Browser, Page } from 'puppeteer-core';
import { newPage } from './browser.js';
import { rawRequest, type RawResponse } from './raw-http.js';
import type { TestDaemon } from './daemon.js';

/** The dashboard of a test daemon, turned on through the API: its app's URL, port, private path prefix and a one-time login link. */
export async function openDashboard(d: TestDaemon): Promise<{ url: string; port: number; prefix: string; loginUrl: string }> {
  const r = await d.client.enableUi();
  const u = new URL(r.url);
  return { url: r.url, port: Number(u.port), prefix: u.pathname, loginUrl: r.loginUrl };
}

/** A request to the dashboard with the Host a browser at 127.0.0.1:port sends, unless headers say otherwise. */
export function dashboardRequest(port: number, r: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return rawRequest(
    { host: '127.0.0.1', port },
    { method: r.method ?? 'GET', path: r.path, headers: { host: `127.0.0.1:${port}`, ...r.headers }, ...(r.body !== undefined ? { body: r.body } : {}) },
  );
}

/** Spends a login link; the session cookie (name=value) it set. */
export async function login(port: number, loginUrl: string): Promise<string> {
  const u = new URL(loginUrl);
  const res = await dashboardRequest(port, { path: `${u.pathname}${u.search}` });
  if (res.status !== 303) throw new Error(`login answered ${res.status}: ${res.body}`);
  const set = String(res.headers['set-cookie'] ?? '');
  return set.split(';')[0] ?? '';
}

/** A started daemon with its dashboard on, and a page of `browser` logged in to it. */
export async function loggedInPage(browser: Browser, d: TestDaemon): Promise<{ page: Page; url: string; prefix: string; problems: string[] }> {
  const { url, prefix, loginUrl } = await openDashboard(d);
  const { page, problems } = await newPage(browser);
  await page.goto(loginUrl);
  return { page, url, prefix, problems };
}

/** Waits until an element matching `selector` holds `text`. */
export async function waitForText(page: Page, selector: string, text: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    (s: string, t: string) => Array.from(document.querySelectorAll(s)).some((el) => el.textContent?.includes(t)),
    { timeout },
    selector,
    text,
  );
}
