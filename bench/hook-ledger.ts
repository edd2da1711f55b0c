/**
 * Issue 24's hook figures, beside the previous build in the same run: the prompt and session-start
 * hooks of this checkout (task outcomes + injection ledger) and of an earlier build (PREV: a checkout
 * with dist/ built, e.g. `git worktree add /tmp/ns-prev <commit> && (cd /tmp/ns-prev && npm run build)`),
 * each against its own daemon holding the same 40 memories and 100 ended tasks in the project, rounds
 * alternating which goes first. Also the ledger's own cost per injection (`ledgerMs`, as the daemon
 * records it: the items' reasons and the record) over every injection of the run.
 *
 *   npx tsx bench/hook-ledger.ts --prev /tmp/ns-prev [--rounds 41]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { InjectionsResponse } from '../src/api/injections.js';
import { ApiClient } from '../src/client/api-client.js';
import { resolvePaths } from '../src/paths.js';
import { memorySentence, rng } from './lib/memgen.js';
import { timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';

const { values } = parseArgs({ options: { prev: { type: 'string' }, rounds: { type: 'string', default: '41' } } });
if (!values.prev) throw new Error('--prev DIR: a checkout of the previous commit with dist/ built');
const builds = { prev: resolve(values.prev, 'dist/cli.js'), this: resolve(import.meta.dirname, '../dist/cli.js') };
type Build = keyof typeof builds;
const rounds = Number(values.rounds);

interface Home {
  dir: string;
  env: Record<string, string>;
  proc: ChildProcess;
}

async function cli(b: Build, h: Home, args: string[], input?: string) {
  const r = await timeNode([builds[b], ...args], h.env, 30_000, input);
  if (r.code !== 0) throw new Error(`${b}: nightshift ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}

async function startDaemon(b: Build): Promise<Home> {
  const dir = mkdtempSync('/tmp/ns-hl-');
  mkdirSync(join(dir, 'config'), { recursive: true });
  writeFileSync(join(dir, 'config', 'config.json'), JSON.stringify({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NIGHTSHIFT_HOME: dir, NIGHTSHIFT_NO_AUTOSTART: '1' };
  const proc = spawn(process.execPath, [builds[b], 'daemon'], { env, stdio: 'ignore' });
  const h = { dir, env, proc };
  for (let i = 0; i < 300; i++) {
    if ((await timeNode([builds[b], 'status'], env, 5000)).code === 0) return h;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${b}: the daemon did not start`);
}

const project = mkdtempSync('/tmp/ns-hl-project-');
const homes = { prev: await startDaemon('prev'), this: await startDaemon('this') };
try {
  const r = rng(11);
  const sentences = Array.from({ length: 40 }, () => memorySentence(r).text);
  for (const b of ['prev', 'this'] as const) {
    for (const [i, s] of sentences.entries()) await cli(b, homes[b], ['remember', '--project', project, ...(i % 2 === 0 ? ['--stable'] : []), s]);
    for (let i = 0; i < 100; i++)
      await cli(b, homes[b], ['run', '--cwd', project, '--', 'sh', '-c', i % 4 === 0 ? `echo failed ${i}; exit 1` : `echo ok ${i}`]);
    await cli(b, homes[b], ['wait', '100']);
  }
  const prompt = `please look at this again: ${sentences[7] ?? ''}`;
  const ms: Record<string, number[]> = {};
  const add = (k: string, v: number) => (ms[k] ??= []).push(v);
  for (let round = -1; round < rounds; round++) {
    const order: Build[] = round % 2 === 0 ? ['prev', 'this'] : ['this', 'prev'];
    for (const b of order) {
      const session = `${b}-${round}`;
      const start = await cli(b, homes[b], ['hook', 'session-start'], JSON.stringify({ session_id: session, cwd: project, source: 'startup' }));
      // Another session's prompt: this one's start was given the memory the prompt asks about, and is not given it again.
      const asked = await cli(b, homes[b], ['hook', 'user-prompt-submit'], JSON.stringify({ session_id: `${session}-p`, cwd: project, prompt }));
      if (!asked.stdout.includes('additionalContext') || !start.stdout.includes('additionalContext')) throw new Error(`${b}: a hook printed no context`);
      if (round < 0) continue; // warm-up
      add(`${b} session-start`, start.ms);
      add(`${b} user-prompt-submit`, asked.ms);
    }
  }
  for (const [k, xs] of Object.entries(ms))
    console.log(`${k.padEnd(28)} p50 ${fmt(median(xs))} ms  p95 ${fmt(percentile(xs, 95))} ms  max ${fmt(Math.max(...xs))} ms  (${xs.length} runs)`);
  // The daemon's part alone (no Node start-up): the prompt request each build's hook sends, alternating, over the socket.
  const clients = {
    prev: new ApiClient({ socket: resolvePaths(homes.prev.env).socket }),
    this: new ApiClient({ socket: resolvePaths(homes.this.env).socket }),
  };
  const direct: Record<string, number[]> = {};
  const time = async (k: string, f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    (direct[k] ??= []).push(performance.now() - t0);
  };
  for (let i = 0; i < 200; i++) {
    for (const b of i % 2 === 0 ? (['prev', 'this'] as const) : (['this', 'prev'] as const)) {
      const body = { prompt, sessionId: `direct-${b}-${i}-p`, project, maxChars: 2000 };
      if (b === 'prev') {
        await time('prev session start', () => clients.prev.call('recall', { body: { project } }));
        await time('prev prompt', () => clients.prev.call('recallPrompt', { body }));
      } else {
        await time('this session start', () => clients.this.call('injectSessionStart', { body: { project, sessionId: `direct-${b}-${i}` } }));
        await time('this prompt', () => clients.this.call('injectPrompt', { body }));
      }
    }
  }
  for (const [k, xs] of Object.entries(direct).sort())
    console.log(`${k.padEnd(20)} request in the daemon  p50 ${fmt(median(xs))} ms  p95 ${fmt(percentile(xs, 95))} ms (${xs.length} requests)`);
  const ledger = JSON.parse((await cli('this', homes.this, ['injections', '--limit', '10000', '--json'])).stdout) as InjectionsResponse;
  const costs = ledger.injections.filter((i) => !/--1(-p)?$/.test(i.sessionId ?? '')).map((i) => i.ledgerMs ?? 0); // the warm-up round's two aside
  console.log(
    `ledger per injection (${costs.length} injections): p50 ${fmt(median(costs))} ms  p95 ${fmt(percentile(costs, 95))} ms  max ${fmt(Math.max(...costs))} ms; every one with items and tokens: ${ledger.injections.every((i) => i.items.length > 0 && i.tokens > 0)}`,
  );
} finally {
  for (const h of Object.values(homes)) h.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  for (const h of Object.values(homes)) rmSync(h.dir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
}
