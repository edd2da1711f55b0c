/**
 * A 1,000-task DAG (20 layers of 50; each task after layer 0 depends on 1–3 random tasks of earlier
 * layers, seeded; each sleeps 10–100 ms) in a group whose limit never binds, next to task-spooler
 * running the same DAG restricted to what it can express (`tsp -D id` takes one dependency: each task
 * keeps its first). Nightshift runs both the full DAG and the restricted one, each on a fresh daemon.
 *
 * All tasks are submitted behind a gate task (it ends when the bench creates a file), so submission
 * is over before the first layer may start. Each task's command stamps its own start and end
 * (`date +%s%N` before and after the sleep) in files: the same clock for both peers, since `tsp -i`
 * prints start times in whole seconds. Nightshift's recorded startedAt / endedAt give its figures too.
 * Overhead per task = start − max(dependency end); started early = overhead < 0 (must be 0).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskJson as Task } from '../src/api/tasks.js';
import type { ApiClient } from '../src/client/api-client.js';
import { tempDir } from './lib/cleanup.js';
import { analyse, firstDepOnly, makeDag, type DagFigures, type DagNode, type Times } from './lib/dag.js';
import { withDaemon } from './lib/daemon.js';
import { fmt, median, percentile } from './lib/stats.js';
import { findTsp, startTsp } from './lib/tsp.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

const SEED = 14;
const LAYERS = 20;
const WIDTH = 50;
/** Above the largest number of tasks that can be ready at once (any of the 1,000): the limit adds no waiting. */
const PARALLEL = 1024;
/**
 * tsp 1.0.1 keeps one connection (a waiting client) per queued job and waits on them with select(),
 * so it holds at most ~990 queued jobs (FD_SETSIZE 1024): the 994th `tsp` hangs. The comparison with
 * it uses the first 18 layers (900 tasks), for both peers.
 */
const PEER_LAYERS = 18;
/** Nightshift's wall time on the DAG tsp can express, over tsp's: the same bound cli-speed holds `run` to. */
const PEER_RATIO = 1.3;
/** Each run must be over within this. */
const RUN_LIMIT_MS = 150_000;

const STAMP = 'date +%s%N >"$0.s"; sleep "$1"; date +%s%N >"$0.e"';
const GATE = 'while [ ! -e "$0" ]; do sleep 0.01; done; date +%s%N >"$0.e"';

const taskCommand = (dir: string, i: number, n: DagNode) => ['sh', '-c', STAMP, join(dir, String(i)), (n.sleepMs / 1000).toFixed(3)];

/** ns since the epoch, as written by `date +%s%N`, in ms. */
const stampMs = (file: string) => Number(BigInt(readFileSync(file, 'utf8').trim()) / 1000n) / 1000;

function stamps(dir: string, count: number, gate: string): Times {
  const idx = [...Array(count).keys()];
  return { start: idx.map((i) => stampMs(join(dir, `${i}.s`))), end: idx.map((i) => stampMs(join(dir, `${i}.e`))), gateEnd: stampMs(`${gate}.e`) };
}

async function allEnded(dir: string, count: number, t0: number): Promise<void> {
  while (readdirSync(dir).filter((f) => f.endsWith('.e')).length < count + 1) {
    if (Date.now() - t0 > RUN_LIMIT_MS) throw new Error(`the DAG did not finish within ${RUN_LIMIT_MS / 1000} s`);
    await sleep(100);
  }
}

interface Run {
  cmd: DagFigures;
  recorded?: DagFigures;
  submitMs: number;
}

async function runNightshift(dag: DagNode[], work: string, label: string, say: (l: string) => void): Promise<Run> {
  const dir = join(work, label);
  mkdirSync(dir);
  const gate = join(dir, 'gate');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  return withDaemon({}, async ({ client }) => {
    await client.addGroup('dag', PARALLEL);
    const base = { cwd: dir, env, stdin: false, group: 'dag' };
    const s0 = Date.now();
    const gateTask = await client.run({ ...base, command: ['sh', '-c', GATE, gate] });
    const ids: string[] = [];
    for (let layer = 0; layer <= Math.max(...dag.map((n) => n.layer)); layer++) {
      const inLayer = dag.map((n, i) => [n, i] as const).filter(([n]) => n.layer === layer);
      const made = await Promise.all(
        inLayer.map(([n, i]) =>
          client.run({ ...base, command: taskCommand(dir, i, n), after: n.deps.length ? n.deps.map((d) => ids[d] as string) : [gateTask.id] }),
        ),
      );
      inLayer.forEach(([, i], k) => (ids[i] = (made[k] as Task).id));
    }
    const submitMs = Date.now() - s0;
    const t0 = Date.now();
    writeFileSync(gate, '');
    await allEnded(dir, dag.length, t0);
    await idle(client);
    const tasks = new Map((await client.list(true, { group: 'dag' })).map((t) => [t.id, t]));
    const ended = (id: string) => {
      const t = tasks.get(id);
      if (t?.state !== 'finished' || t.exitCode !== 0) throw new Error(`task ${id} ended ${t?.status ?? 'missing'}`);
      return { start: Date.parse(t.startedAt ?? ''), end: Date.parse(t.endedAt) };
    };
    const rec = ids.map(ended);
    const recorded = analyse(dag, { start: rec.map((r) => r.start), end: rec.map((r) => r.end), gateEnd: ended(gateTask.id).end });
    say(`${label}: submitted ${dag.length + 1} tasks in ${fmt(submitMs / 1000)} s`);
    return { cmd: analyse(dag, stamps(dir, dag.length, gate)), recorded, submitMs };
  });
}

async function idle(client: ApiClient): Promise<void> {
  for (;;) {
    const g = (await client.groups()).find((x) => x.name === 'dag');
    if (g && g.running === 0 && g.queued === 0) return;
    await sleep(100);
  }
}

async function runTsp(bin: string, dag: DagNode[], work: string, say: (l: string) => void): Promise<Run> {
  const dir = join(work, 'tsp');
  mkdirSync(dir);
  const gate = join(dir, 'gate');
  const tsp = await startTsp(bin, work, PARALLEL, dag.length + 1, { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  try {
    say(`peer: ${tsp.bin} (${tsp.version}), its own server (pid ${tsp.pid}), -S ${PARALLEL}`);
    const s0 = Date.now();
    const gateId = await tsp.add(['sh', '-c', GATE, gate]);
    const ids: string[] = [];
    // One at a time: each dependency's id must be known first (tsp numbers jobs in arrival order).
    for (const [i, n] of dag.entries())
      ids[i] = await tsp.add(['-D', n.deps.length ? (ids[n.deps[0] as number] as string) : gateId, ...taskCommand(dir, i, n)]);
    const submitMs = Date.now() - s0;
    say(`tsp: submitted ${dag.length + 1} jobs in ${fmt(submitMs / 1000)} s`);
    const t0 = Date.now();
    writeFileSync(gate, '');
    await allEnded(dir, dag.length, t0);
    return { cmd: analyse(dag, stamps(dir, dag.length, gate)), submitMs };
  } finally {
    // Jobs already running outlive `tsp -K`: the gate is opened so that they end by themselves.
    writeFileSync(gate, '');
    tsp.stop();
  }
}

const describe = (name: string, f: DagFigures) =>
  `${name}: overhead p50 ${fmt(median(f.overhead))} / p95 ${fmt(percentile(f.overhead, 95))} / p99 ${fmt(percentile(f.overhead, 99))} / max ${fmt(Math.max(...f.overhead))} ms; ` +
  `wall ${fmt(f.wallMs)} ms, critical path ${fmt(f.criticalMs)} ms (× ${fmt(f.wallMs / f.criticalMs)}); started early ${f.early}; at most ${f.maxRunning} running`;

export const workflowDag: Bench = {
  name: 'workflow-dag',
  title: `${LAYERS * WIDTH}-task DAG (${LAYERS} layers of ${WIDTH}, 1–3 deps): scheduling overhead, wall / critical path, next to tsp -D`,
  budgetSeconds: 600,
  async run(_o, say) {
    const dag = makeDag(SEED, LAYERS, WIDTH);
    const single = firstDepOnly(dag).slice(0, PEER_LAYERS * WIDTH);
    say(`peer comparison: the first ${single.length} tasks, each keeping its first dependency only`);
    const deps = dag.map((n) => n.deps.length);
    say(
      `seed ${SEED}: ${dag.length} tasks, ${deps.reduce((a, b) => a + b, 0)} dependencies; sleeps ${Math.min(...dag.map((n) => n.sleepMs))}–${Math.max(...dag.map((n) => n.sleepMs))} ms, sum ${dag.reduce((a, n) => a + n.sleepMs, 0)} ms`,
    );
    const work = tempDir('ns-bench-dag-');
    try {
      const full = await runNightshift(dag, work.dir, 'nightshift-full', say);
      const tsp = findTsp({ PATH: process.env['PATH'] ?? '' });
      const peer = 'bin' in tsp ? await runTsp(tsp.bin, single, work.dir, say) : undefined;
      if ('missing' in tsp) say(`SKIPPED the tsp figures: ${tsp.missing}`);
      const one = await runNightshift(single, work.dir, 'nightshift-first-dep', say);
      const rec = full.recorded as DagFigures;
      say(describe('nightshift, full DAG, recorded startedAt/endedAt', rec));
      say(describe('nightshift, full DAG, stamped by the commands', full.cmd));
      say(describe(`nightshift, first ${PEER_LAYERS} layers, first dependency only, stamped`, one.cmd));
      if (peer) say(describe(`tsp -D, first ${PEER_LAYERS} layers, first dependency only, stamped`, peer.cmd));
      const figs: Figure[] = [
        atMost('nightshift tasks started before a dependency ended (recorded)', rec.early, '', 0),
        atMost('nightshift tasks started early (commands’ own stamps)', full.cmd.early + one.cmd.early, '', 0),
        info('nightshift overhead p50 (recorded start − max dep end)', median(rec.overhead), 'ms'),
        info('nightshift overhead p95 (recorded)', percentile(rec.overhead, 95), 'ms'),
        info('nightshift overhead p99 (recorded)', percentile(rec.overhead, 99), 'ms'),
        info(
          'nightshift overhead p50 / p95 / p99 (stamped), full DAG',
          median(full.cmd.overhead),
          'ms',
          `${fmt(percentile(full.cmd.overhead, 95))} / ${fmt(percentile(full.cmd.overhead, 99))}`,
        ),
        info('nightshift wall / critical path (recorded), full DAG', rec.wallMs / rec.criticalMs, '×', `${fmt(rec.wallMs)} / ${fmt(rec.criticalMs)} ms`),
        info(
          'nightshift wall / critical path (stamped), full DAG',
          full.cmd.wallMs / full.cmd.criticalMs,
          '×',
          `${fmt(full.cmd.wallMs)} / ${fmt(full.cmd.criticalMs)} ms`,
        ),
        info(
          'nightshift overhead p50 / p95 / p99 (stamped), first dep, 900 tasks',
          median(one.cmd.overhead),
          'ms',
          `${fmt(percentile(one.cmd.overhead, 95))} / ${fmt(percentile(one.cmd.overhead, 99))}`,
        ),
        info(
          'nightshift wall / critical path (stamped), first dep, 900 tasks',
          one.cmd.wallMs / one.cmd.criticalMs,
          '×',
          `${fmt(one.cmd.wallMs)} / ${fmt(one.cmd.criticalMs)} ms`,
        ),
      ];
      if (peer) {
        const p = peer.cmd;
        figs.push(
          atMost('tsp jobs started early (stamped)', p.early, '', 0),
          info(
            'tsp overhead p50 / p95 / p99 (stamped), first dep, 900 tasks',
            median(p.overhead),
            'ms',
            `${fmt(percentile(p.overhead, 95))} / ${fmt(percentile(p.overhead, 99))}`,
          ),
          info('tsp wall / critical path (stamped), first dep, 900 tasks', p.wallMs / p.criticalMs, '×', `${fmt(p.wallMs)} / ${fmt(p.criticalMs)} ms`),
          info('overhead p50 nightshift / tsp (first dep, stamped)', median(one.cmd.overhead) / median(p.overhead), '×'),
          info('overhead p99 nightshift / tsp (first dep, stamped)', percentile(one.cmd.overhead, 99) / percentile(p.overhead, 99), '×'),
          atMost('wall nightshift / tsp (first dep, 900 tasks)', one.cmd.wallMs / p.wallMs, '×', PEER_RATIO),
        );
      }
      return figs;
    } finally {
      work.remove();
    }
  },
};
