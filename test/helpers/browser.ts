import { execFileSync } from 'node:child_process';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's chromium (NIGHTSHIFT_CHROMIUM overrides): no browser is downloaded. */
export function chromiumPath(): string {
  const given = process.env.NIGHTSHIFT_CHROMIUM;
  if (given) return given;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: `apt-get install chromium` (or set NIGHTSHIFT_CHROMIUM to a Chromium binary)');
  }
}

/** Headless Chromium; --no-sandbox because CI runs as root. */
export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
  });
}

/** A page that records what the console complains about (CSP violations among them). */
export async function newPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  return { page, problems };
}
