/**
 * The hooks through the shell entry `nightshift integrate` installs (`/bin/sh nightshift-hook.sh
 * <hook>`: perl over the daemon's socket) beside the same entry with perl hidden from PATH (its
 * curl client), the Node hook (`node dist/cli.js hook <hook>`) and `node -e 0`, in the same rounds
 * (order rotated), against one daemon holding 10,000 memories: session start and a prompt that
 * matches, each in a new session, so every call does the real work. Twice: on the machine as it
 * is, then with two busy processes the bench starts and ends by pid. Every round both clients'
 * answers must be the Node hook's, byte for byte. Also the daemon's share (the hook route's round
 * trip from a process already running), and the entry without perl and curl on PATH (its
 * fallback, the Node hook).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { defer, killPid, tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { rng } from './lib/memgen.js';
import { CLI, timeNode, timeProcess, type Spawned } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';
import { memoryLines, seedStore } from './recall.js';

/** The entry's p95 at most this share of `node -e 0`'s p95. */
const RATIO_TARGET = 0.3;
const DAEMON_P95_MS = 20;
/** The fallback answers at the Node hook's speed: its p50 at most this many times the Node hook's. */
const FALLBACK_RATIO = 1.25;
const MEMORIES = 10_000;

type Row =
  | 'node -e 0'
  | 'entry session-start'
  | 'entry prompt'
  | 'curl session-start'
  | 'curl prompt'
  | 'node hook session-start'
  | 'node hook prompt'
  | 'fallback session-start'
  | 'fallback prompt';

/** A PATH with curl (and cat, which the entry's no-daemon path runs) but no perl: the entry's second client. */
function curlOnlyPath(dir: string): string {
  const bin = join(dir, 'curl-only');
  mkdirSync(bin);
  for (const name of ['curl', 'cat'])
    symlinkSync(
      execFileSync('/bin/sh', ['-c', `command -v ${name}`])
        .toString()
        .trim(),
      join(bin, name),
    );
  return bin;
}

/** Two processes that spin until killed by their pid. */
function burners(): () => void {
  const pids = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }).pid ?? 0);
  const stop = () => pids.forEach((p) => killPid(p));
  const drop = defer(stop);
  return () => {
    drop();
    stop();
  };
}

/** One hook route call from this (running) process: what the daemon's side costs, with its HTTP. */
function routeMs(socketPath: string, hook: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ socketPath, method: 'POST', path: `/v1/hook/${hook}?timeout=150` }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`hook route answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const hookEntryBench: Bench = {
  name: 'hook-entry',
  title: 'Hooks through the shell entry (perl over the socket; curl with perl hidden) beside the Node hook and node -e 0, 10,000 memories, quiet and loaded',
  budgetSeconds: 900,
  async run(o, say) {
    const rounds = o.quick ? 20 : 200;
    const work = tempDir('ns-bench-entry-');
    const project = work.dir;
    const lines = memoryLines(rng(31), MEMORIES, project, Date.now());
    const query = lines.find((l) => l.scope === 'project' && l.stable)?.content ?? '';
    try {
      return await withDaemon(
        { transcripts: { watch: false }, memory: { extractor: 'heuristic' } },
        async ({ cliEnv, paths }) => {
          const setup = await timeNode([CLI, 'integrate', 'codex'], { ...cliEnv, HOME: work.dir, CODEX_HOME: join(work.dir, '.codex') });
          if (setup.code !== 0) throw new Error(`integrate failed: ${setup.stderr}`);
          const entry = join(paths.stateDir, 'nightshift-hook.sh');
          const env = { ...cliEnv, NIGHTSHIFT_HOOK_TIMEOUT_MS: '10000', NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };
          const noClient = { ...env, PATH: '/nonexistent' };
          const curlOnly = { ...env, PATH: curlOnlyPath(work.dir) };
          let session = 0;
          const input = (hook: string) =>
            JSON.stringify({
              session_id: `bench-${++session}`,
              cwd: project,
              hook_event_name: hook === 'session-start' ? 'SessionStart' : 'UserPromptSubmit',
              ...(hook === 'session-start' ? { source: 'startup' } : { prompt: `please look at this again: ${query}` }),
            });
          const hookOf = (row: Row) => (row.endsWith('session-start') ? 'session-start' : 'user-prompt-submit');
          const runRow = (row: Row, text: string): Promise<Spawned> => {
            if (row === 'node -e 0') return timeNode(['-e', '0'], env);
            if (row.startsWith('node hook')) return timeNode([CLI, 'hook', hookOf(row)], env, 30_000, text);
            const rowEnv = row.startsWith('fallback') ? noClient : row.startsWith('curl') ? curlOnly : env;
            return timeProcess('/bin/sh', [entry, hookOf(row)], { env: rowEnv, input: text });
          };

          const phase = async (label: string, rows: Row[]): Promise<Figure[]> => {
            const ms = Object.fromEntries(rows.map((r) => [r, [] as number[]])) as Record<Row, number[]>;
            let differ = 0;
            for (let round = -2; round < rounds; round++) {
              const out: Partial<Record<Row, string>> = {};
              for (let i = 0; i < rows.length; i++) {
                const row = rows[(i + Math.max(0, round)) % rows.length] as Row;
                const r = await runRow(row, input(hookOf(row)));
                if (r.code !== 0) throw new Error(`${row} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
                if (row !== 'node -e 0' && !r.stdout.includes('additionalContext')) throw new Error(`${row} printed no context: ${r.stderr.slice(0, 300)}`);
                out[row] = r.stdout;
                if (round >= 0) ms[row].push(r.ms);
              }
              const same = (a: Row, b: Row) => !rows.includes(a) || out[a] === out[b];
              const agree =
                same('entry session-start', 'node hook session-start') &&
                same('entry prompt', 'node hook prompt') &&
                same('curl session-start', 'node hook session-start') &&
                same('curl prompt', 'node hook prompt');
              if (!agree) differ++;
            }
            const floor = percentile(ms['node -e 0'], 95);
            for (const r of rows) say(`${label}: ${r.padEnd(24)} p50 ${fmt(median(ms[r]))} ms, p95 ${fmt(percentile(ms[r], 95))} ms (${ms[r].length} calls)`);
            const figures: Figure[] = [
              info(`${label}: node -e 0, p50`, median(ms['node -e 0']), 'ms', `p95 ${fmt(floor)} ms`),
              atMost(`${label}: rounds where the entry's answer (perl or curl) differs from the Node hook's`, differ, '', 0),
            ];
            for (const [entryRow, nodeRow] of [
              ['entry session-start', 'node hook session-start'],
              ['entry prompt', 'node hook prompt'],
            ] as const) {
              figures.push(info(`${label}: ${entryRow}, p50`, median(ms[entryRow]), 'ms', `p95 ${fmt(percentile(ms[entryRow], 95))} ms`));
              figures.push(info(`${label}: ${nodeRow}, p50`, median(ms[nodeRow]), 'ms', `p95 ${fmt(percentile(ms[nodeRow], 95))} ms`));
              figures.push(atMost(`${label}: ${entryRow} p95 / node -e 0 p95`, percentile(ms[entryRow], 95) / floor, '×', RATIO_TARGET));
            }
            for (const curlRow of ['curl session-start', 'curl prompt'] as const) {
              const p95 = percentile(ms[curlRow], 95);
              figures.push(info(`${label}: entry through ${curlRow} (perl hidden), p50`, median(ms[curlRow]), 'ms', `p95 ${fmt(p95)} ms`));
              figures.push(info(`${label}: ${curlRow} p95 / node -e 0 p95`, p95 / floor, '×'));
            }
            for (const [fb, nodeRow] of [
              ['fallback session-start', 'node hook session-start'],
              ['fallback prompt', 'node hook prompt'],
            ] as const)
              if (rows.includes(fb))
                figures.push(
                  atMost(`${label}: ${fb} (no perl, no curl on PATH) p50 / Node hook p50`, median(ms[fb]) / median(ms[nodeRow]), '×', FALLBACK_RATIO),
                );
            return figures;
          };

          const share = async (label: string, target: boolean): Promise<Figure[]> => {
            const xs: number[] = [];
            for (let i = -5; i < rounds; i++) {
              const took = await routeMs(paths.socket, 'user-prompt-submit', input('user-prompt-submit'));
              if (i >= 0) xs.push(took);
            }
            say(`${label}: the daemon's share (hook route round trip, prompt with a query) p50 ${fmt(median(xs))} ms, p95 ${fmt(percentile(xs, 95))} ms`);
            const name = `${label}: daemon's share of the prompt hook at ${MEMORIES / 1000}k memories, p95`;
            return [target ? atMost(name, percentile(xs, 95), 'ms', DAEMON_P95_MS) : info(name, percentile(xs, 95), 'ms', `p50 ${fmt(median(xs))} ms`)];
          };

          say(`${MEMORIES} memories in the store; ${rounds} rounds per phase, order rotated each round`);
          const base: Row[] = [
            'node -e 0',
            'entry session-start',
            'entry prompt',
            'curl session-start',
            'curl prompt',
            'node hook session-start',
            'node hook prompt',
          ];
          const figures = [...(await phase('quiet', [...base, 'fallback session-start', 'fallback prompt'])), ...(await share('quiet', true))];
          const stop = burners();
          try {
            figures.push(...(await phase('loaded', base)), ...(await share('loaded', false)));
          } finally {
            stop();
          }
          return figures;
        },
        { prepare: (p) => seedStore(p, lines, project) },
      );
    } finally {
      work.remove();
    }
  },
};
