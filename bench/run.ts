/**
 * Runs the benchmarks: `tsx bench/run.ts [name…] [--quick]` (`npm run bench -- capture` builds first).
 * Prints each figure with its target; writes the figures as JSON to bench/.out/<name>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { capture } from './capture.js';
import { cliSpeed } from './cli-speed.js';
import { concurrentClients } from './concurrent-clients.js';
import { contextBench } from './context.js';
import { dreamBench } from './dream.js';
import { dreamParaphraseBench } from './dream-paraphrase.js';
import { evidenceBench } from './evidence.js';
import { realSessionsBench } from './real-sessions.js';
import { outOfFoldBench } from './out-of-fold.js';
import { longitudinalBench } from './longitudinal.js';
import { followLatency } from './follow.js';
import { hookEntryBench } from './hook-entry.js';
import { hooksBench } from './hooks.js';
import { idleTasks } from './idle-tasks.js';
import { ingestBench } from './ingest.js';
import { undoAll } from './lib/cleanup.js';
import { fmt } from './lib/stats.js';
import { locomo } from './locomo.js';
import { longitudinalStressBench } from './longitudinal-stress.js';
import { memoryBrowseBench } from './memory-browse.js';
import { mcpMonitorBench } from './mcp-monitor.js';
import { modelCliBench } from './model-cli.js';
import type { Bench, Figure } from './lib/types.js';
import { promptRecallBench } from './prompt-recall.js';
import { recallBench } from './recall.js';
import { redactSpeedBench } from './redact-speed.js';
import { restartBench } from './restart.js';
import { scheduleBench } from './schedule.js';
import { startPath } from './start-path.js';
import { tailRead } from './tail-read.js';
import { workflowDag } from './workflow-dag.js';
import { groupLimit } from './group-limit.js';
import { pauseCpu } from './pause-cpu.js';
import { uiBench } from './ui.js';

const BENCHES: Bench[] = [
  capture,
  startPath,
  followLatency,
  tailRead,
  idleTasks,
  recallBench,
  memoryBrowseBench,
  promptRecallBench,
  restartBench,
  ingestBench,
  redactSpeedBench,
  locomo,
  realSessionsBench,
  outOfFoldBench,
  longitudinalBench,
  modelCliBench,
  dreamBench,
  dreamParaphraseBench,
  evidenceBench,
  longitudinalStressBench,
  contextBench,
  hooksBench,
  hookEntryBench,
  cliSpeed,
  scheduleBench,
  mcpMonitorBench,
  workflowDag,
  groupLimit,
  pauseCpu,
  uiBench,
  concurrentClients,
];
const OUT = join(import.meta.dirname, '.out');

function usage(): string {
  return `usage: tsx bench/run.ts [--quick] [${BENCHES.map((b) => b.name).join('|')}]…\n`;
}

function withBudget<T>(p: Promise<T>, seconds: number, name: string): Promise<T> {
  p.catch(() => undefined); // once it has lost the race, its own later failure is expected
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} ran over its budget of ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([p, over]).finally(() => clearTimeout(timer));
}

function row(f: Figure): string {
  const mark = f.ok === null ? '    ' : f.ok ? 'ok  ' : 'MISS';
  return `  ${mark} ${f.name.padEnd(58)} ${`${fmt(f.value)} ${f.unit}`.padEnd(14)} ${f.target}`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length > 0 || args.includes('--help')) {
    process.stderr.write(`${unknown.length ? `unknown benchmark: ${unknown.join(', ')}\n` : ''}${usage()}`);
    return 2;
  }
  const chosen = names.length ? BENCHES.filter((b) => names.includes(b.name)) : BENCHES;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? '?'}, Linux ${release()}, node ${process.version}, load ${loadavg().map(fmt).join(' ')}`;
  process.stdout.write(`nightshift benchmarks${quick ? ' (--quick)' : ''} on ${machine}\n`);
  mkdirSync(OUT, { recursive: true });
  let failed = 0;
  let missed = 0;
  for (const b of chosen) {
    process.stdout.write(`\n== ${b.name}: ${b.title} (load ${loadavg().map(fmt).join(' ')})\n`);
    const t0 = Date.now();
    try {
      const figures = await withBudget(
        b.run({ quick }, (line) => process.stdout.write(`  ${line}\n`)),
        b.budgetSeconds,
        b.name,
      );
      process.stdout.write(`${figures.map(row).join('\n')}\n  (${fmt((Date.now() - t0) / 1000)} s)\n`);
      missed += figures.filter((f) => f.ok === false).length;
      writeFileSync(join(OUT, `${b.name}.json`), JSON.stringify({ at: new Date().toISOString(), quick, machine, figures }, null, 2));
    } catch (err) {
      failed += 1;
      process.stdout.write(`  FAILED: ${(err as Error).stack ?? String(err)}\n`);
      await undoAll();
    }
  }
  await undoAll();
  process.stdout.write(
    `\n${failed ? `${failed} benchmark(s) failed; ` : ''}${missed ? `${missed} figure(s) missed their target` : failed ? '' : 'every figure met its target'}\n`,
  );
  return failed || missed ? 1 : 0;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    process.stderr.write(`\n${sig}: cleaning up\n`);
    void undoAll().then(() => process.exit(130));
  });
}

process.exit(await main());
