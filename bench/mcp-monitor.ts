/**
 * A killed MCP server is reported down within two intervals: a fake streamable-HTTP MCP server
 * (test/fakes/mcp-server.mjs) configured in a temporary ~/.codex/config.toml, monitored by a real
 * daemon; each trial starts the server, waits for `up`, kills the server by pid at a random point of
 * the interval, and times kill → `down` (the API polled every 5 ms). Beside it, measured in the same
 * run: the interval, and what one failing check of the dead server costs by itself (the SDK client
 * connecting straight from this process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkServer } from '../src/monitor/check.js';
import { defer, killPid, tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { fmt, list, median } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

const FAKE = resolve(import.meta.dirname, '../test/fakes/mcp-server.mjs');
const INTERVAL_MS = 500;
const TIMEOUT_MS = 2000;

async function startServer(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const portFile = join(dir, 'port');
  rmSync(portFile, { force: true });
  const proc = spawn(process.execPath, [FAKE, '--http', portFile], { stdio: 'ignore' });
  const pid = proc.pid;
  if (pid !== undefined) defer(() => killPid(pid));
  for (let i = 0; !existsSync(portFile); i++) {
    if (i > 1000) throw new Error('the fake MCP server did not start');
    await sleep(10);
  }
  return { proc, url: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp` };
}

async function until(fn: () => Promise<boolean>, timeoutMs: number, stepMs = 5): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await fn())) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(stepMs);
  }
}

export const mcpMonitorBench: Bench = {
  name: 'mcp-monitor',
  title: `a killed MCP server (streamable HTTP) is reported down within two intervals (interval ${INTERVAL_MS} ms)`,
  budgetSeconds: 120,
  async run(o, say) {
    const trials = o.quick ? 3 : 15;
    const home = tempDir('ns-bench-mon-');
    try {
      mkdirSync(join(home.dir, '.codex'));
      const config = join(home.dir, '.codex', 'config.toml');
      return await withDaemon(
        {},
        async ({ client }) => {
          const toDown: number[] = [];
          const oneCheck: number[] = [];
          let ref = '';
          for (let t = 0; t < trials; t++) {
            const srv = await startServer(home.dir);
            // The definition is read again at every check: a new port is picked up.
            writeFileSync(config, `[mcp_servers.fake]\nurl = "${srv.url}"\n`);
            if (ref === '') {
              const r = await client.addMonitors({ name: 'fake', project: home.dir, intervalMs: INTERVAL_MS, timeoutMs: TIMEOUT_MS });
              ref = r.added[0]?.id ?? '';
            }
            await until(async () => (await client.monitor(ref)).state === 'up', 10_000);
            await sleep(Math.random() * INTERVAL_MS);
            const t0 = performance.now();
            killPid(srv.proc.pid ?? 0);
            await until(async () => (await client.monitor(ref)).state === 'down', 4 * INTERVAL_MS + TIMEOUT_MS);
            toDown.push(performance.now() - t0);
            const c0 = performance.now();
            const r = await checkServer(
              { transport: 'http', url: srv.url, headers: {} },
              { timeoutMs: TIMEOUT_MS, slowMs: TIMEOUT_MS, cwd: home.dir, env: {} },
            );
            if (r.state !== 'down') throw new Error(`a check of the killed server was ${r.state}`);
            oneCheck.push(performance.now() - c0);
          }
          say(`kill → down, ms: ${list(toDown)}`);
          say(`one failing check by itself, ms: ${list(oneCheck)}`);
          const max = Math.max(...toDown);
          return [
            atMost(`kill → down, worst of ${trials} (interval ${INTERVAL_MS} ms)`, Math.round(max), 'ms', 2 * INTERVAL_MS),
            info('kill → down, median', Math.round(median(toDown)), 'ms', `interval ${INTERVAL_MS} ms; expected ≈ interval / 2 + one check`),
            info('one failing check of the dead server (SDK client, direct)', Number(fmt(median(oneCheck))), 'ms', 'baseline, same run'),
          ];
        },
        { env: { HOME: home.dir, CODEX_HOME: join(home.dir, '.codex') } },
      );
    } finally {
      home.remove();
    }
  },
};
