/**
 * The dashboard: first page load of the task list at 1,000 tasks and of the memories page at 10,000
 * memories (navigation start → first row rendered, the browser's Performance API; the memories page
 * picks the latest project and lists its first page), beside the CLI's `ps --all` and `memories list`
 * on the same daemon; the latency from a task writing a line to the line being in
 * the page (a MutationObserver in the page), beside `nightshift tail -f` on the same task; the
 * bundle's size gzipped.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'puppeteer-core';
import { launchBrowser } from '../test/helpers/browser.js';
import { defer, killPid, tempDir } from './lib/cleanup.js';
import { waitEnded, withDaemon } from './lib/daemon.js';
import { memorySentence, rng } from './lib/memgen.js';
import { CLI, timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const LINES = 200;
const INTERVAL_MS = 50;
/** What "rendered" means per route: the element whose appearance ends the page load. */
const RENDERED = { tasks: 'tbody tr', memories: 'tbody tr[data-memory]' } as const;

/** Writes "<n> <Date.now()>" every 50 ms once the followers have had time to start. */
const PRODUCER = `
let n = 0;
setTimeout(() => {
  const t = setInterval(() => {
    process.stdout.write(n + ' ' + Date.now() + '\\n');
    if (++n >= ${LINES}) clearInterval(t);
  }, ${INTERVAL_MS});
}, 2500);
`;

/**
 * Runs in the page before its scripts (a string: bench/ is typed for Node, not the DOM): records when
 * the route's element first appears (performance.now(): from navigation start) and, for each line
 * added to the output, Date.now() minus the stamp the task wrote in it.
 */
const instrument = (selector: string) => `
window.__latencies = [];
let buf = '';
new MutationObserver((records) => {
  if (window.__renderedAt === undefined && document.querySelector(${JSON.stringify(selector)})) window.__renderedAt = performance.now();
  const now = Date.now();
  for (const r of records) {
    if (!(r.target instanceof HTMLElement) || !r.target.matches('pre.output')) continue;
    for (const n of r.addedNodes) buf += n.textContent || '';
    let nl;
    while ((nl = buf.indexOf('\\n')) >= 0) {
      const stamp = Number(buf.slice(0, nl).split(' ')[1]);
      buf = buf.slice(nl + 1);
      if (stamp > 0) window.__latencies.push(now - stamp);
    }
  }
}).observe(document, { childList: true, subtree: true });
`;

/** Loads `path` in a fresh tab and reads navigation start → rendered from the page. */
async function pageLoad(newPage: () => Promise<Page>, url: string, selector: string): Promise<number> {
  const page = await newPage();
  try {
    await page.evaluateOnNewDocument(instrument(selector));
    await page.goto(url);
    await page.waitForFunction('window.__renderedAt !== undefined', { timeout: 30_000 });
    return Number(await page.evaluate('window.__renderedAt'));
  } finally {
    await page.close();
  }
}

function gzippedBundle(): { js: number; css: number } {
  const dir = join(CLI, '..', 'ui', 'assets');
  const size = (ext: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(ext))
      .reduce((s, f) => s + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  return { js: size('.js'), css: size('.css') };
}

/** `nightshift tail -f`: each line's delay from its stamp to the CLI's stdout. */
function tailFollower(id: string, env: Record<string, string>): { latencies: number[]; ended: Promise<void> } {
  const latencies: number[] = [];
  const p = spawn(process.execPath, [CLI, 'tail', id, '-n', '0', '-f'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const drop = p.pid === undefined ? () => undefined : defer(() => killPid(p.pid ?? 0));
  let buf = '';
  p.stdout.on('data', (c: Buffer) => {
    const now = Date.now();
    buf += c.toString('utf8');
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      latencies.push(now - Number(buf.slice(0, nl).split(' ')[1]));
      buf = buf.slice(nl + 1);
    }
  });
  const ended = new Promise<void>((resolve) => p.once('close', () => (drop(), resolve())));
  return { latencies, ended };
}

export const uiBench: Bench = {
  name: 'ui',
  title: 'Dashboard: first page load at 1,000 tasks / 10,000 memories (list rendered), live line latency in the browser beside tail -f, bundle size',
  budgetSeconds: 420,
  async run(o, say) {
    const nTasks = o.quick ? 200 : 1000;
    const nMemories = o.quick ? 2000 : 10_000;
    const runs = o.quick ? 2 : 5;
    const work = tempDir('ns-bench-ui-');
    try {
      return await withDaemon({ ui: { port: 0 }, maxParallel: 32 }, async ({ client, env, cliEnv }) => {
        for (let i = 0; i < nTasks; i += 50) {
          await Promise.all(Array.from({ length: Math.min(50, nTasks - i) }, () => client.run({ command: ['true'], cwd: work.dir, stdin: false })));
        }
        const r = rng(7);
        for (let i = 0; i < nMemories; i += 2000) {
          await client.importMemories(Array.from({ length: Math.min(2000, nMemories - i) }, () => ({ content: memorySentence(r).text, project: work.dir })));
        }
        while ((await client.list(false)).length > 0) await new Promise((res) => setTimeout(res, 200));
        say(`${nTasks} tasks finished, ${nMemories} memories imported`);
        const browser = await launchBrowser();
        const closeBrowser = defer(() => void browser.close());
        try {
          const { url, loginUrl } = await client.enableUi();
          const page = await browser.newPage();
          await page.goto(loginUrl);
          const load = { tasks: [] as number[], memories: [] as number[] };
          for (let i = 0; i < runs; i++) {
            load.tasks.push(await pageLoad(() => browser.newPage(), `${url}/tasks?state=all`, RENDERED.tasks));
            load.memories.push(await pageLoad(() => browser.newPage(), `${url}/memories`, RENDERED.memories));
          }
          const ps = [] as number[];
          const memList = [] as number[];
          for (let i = 0; i < runs; i++) {
            ps.push((await timeNode([CLI, 'ps', '--all'], cliEnv)).ms);
            memList.push((await timeNode([CLI, 'memories', 'list', '--project', work.dir], cliEnv)).ms);
          }
          say(`task list: ${fmt(median(load.tasks))} ms (runs ${load.tasks.map(fmt).join(' ')}); nightshift ps --all ${fmt(median(ps))} ms`);
          say(
            `memories page: ${fmt(median(load.memories))} ms (runs ${load.memories.map(fmt).join(' ')}); nightshift memories list ${fmt(median(memList))} ms`,
          );

          // Line latency: the task page and `nightshift tail -f` on the same task, at once.
          const task = await client.run({ command: [process.execPath, '-e', PRODUCER], cwd: work.dir, env, stdin: false });
          const live = await browser.newPage();
          await live.evaluateOnNewDocument(instrument('pre.output'));
          await live.goto(`${url}/tasks/${task.id}`);
          const tail = tailFollower(task.id, cliEnv);
          await waitEnded(client, task.id);
          await tail.ended;
          await live.waitForFunction(`window.__latencies.length >= ${LINES}`, { timeout: 10_000 });
          const browserLat = (await live.evaluate('window.__latencies')) as number[];
          if (tail.latencies.length !== LINES) throw new Error(`tail -f received ${tail.latencies.length} lines of ${LINES}`);
          const b = { p50: percentile(browserLat, 50), p99: percentile(browserLat, 99) };
          const t = { p50: percentile(tail.latencies, 50), p99: percentile(tail.latencies, 99) };
          say(`line latency: page p50 ${fmt(b.p50)} ms p99 ${fmt(b.p99)} ms; nightshift tail -f p50 ${fmt(t.p50)} ms p99 ${fmt(t.p99)} ms`);
          const size = gzippedBundle();
          say(`bundle gzipped: ${size.js} B script + ${size.css} B stylesheet`);
          const figures: Figure[] = [
            atMost(`task list first load (${nTasks} tasks), median of ${runs}`, median(load.tasks), 'ms', 1000),
            info('nightshift ps --all, same daemon (peer)', median(ps), 'ms'),
            atMost(`memories page first load (${nMemories} memories), median of ${runs}`, median(load.memories), 'ms', 1000),
            info('nightshift memories list, same daemon (peer)', median(memList), 'ms'),
            atMost('line → page p50 minus tail -f p50', b.p50 - t.p50, 'ms', 50),
            info('line → page p50', b.p50, 'ms'),
            atMost('line → page p99', b.p99, 'ms', 250),
            info('nightshift tail -f p50 (peer)', t.p50, 'ms'),
            info('nightshift tail -f p99 (peer)', t.p99, 'ms'),
            atMost('bundle gzipped (script + stylesheet)', Math.round((size.js + size.css) / 1024), 'KiB', 80),
          ];
          return figures;
        } finally {
          closeBrowser();
          await browser.close();
        }
      });
    } finally {
      work.remove();
    }
  },
};
