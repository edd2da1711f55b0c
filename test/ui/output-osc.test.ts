/** OSC sequences (hyperlinks, window titles) in task output on the dashboard: never raw text, never a link. */
import type { Browser } from 'puppeteer-core';
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from '../helpers/browser.js';
import { daemonsPerTest, until } from '../helpers/daemon.js';
import { openDashboard } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('OSC sequences in task output', () => {
  it('hyperlinks show as their text, titles not at all, also when a sequence is cut between two live pieces', async () => {
    const d = daemon({ ui: { port: 0 } });
    await d.start();
    const gate = `${d.home}/go`;
    // BEL- and ST-terminated OSC 8 links (one to javascript:), an OSC 0 title, colour around a link;
    // then, live, an OSC 8 opener written in two pieces with a pause between them.
    const script = [
      `printf '\\033]8;;https://example.com\\007site\\033]8;;\\007 a\\n'`,
      `printf '\\033]8;;javascript:alert(1)\\033\\\\click\\033]8;;\\033\\\\ b\\n'`,
      `printf '\\033]0;my window title\\007c \\033[31m\\033]8;id=1;https://x.test\\007red link\\033]8;;\\007\\033[0m\\n'`,
      `while [ ! -e ${gate} ]; do sleep 0.05; done`,
      `printf '\\033]8;;javascript:al'; sleep 0.5; printf 'ert(2)\\007live\\033]8;;\\007 d\\n'; sleep 30`,
    ].join('; ');
    const task = await d.client.run({ command: ['sh', '-c', script], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.output(task.id)).data.toString().includes('red link'));
    const { url, loginUrl } = await openDashboard(d);
    const { page, problems } = await newPage(browser);
    await page.goto(loginUrl);
    await page.goto(`${url}/tasks/${task.id}`);
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes('red link'));
    writeFileSync(gate, '');
    await page.waitForFunction(() => document.querySelector('pre.output')?.textContent?.includes(' d'), { timeout: 10_000 });
    const shown = await page.$eval('pre.output', (el) => ({
      text: el.textContent ?? '',
      links: [...el.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      red: el.querySelector('.ansi-red-fg')?.textContent ?? null,
    }));
    expect(shown.text).toBe('site a\nclick b\nc red link\nlive d\n');
    expect(shown.links).toEqual([]);
    expect(shown.red).toBe('red link');
    expect(problems).toEqual([]);
  });
});
