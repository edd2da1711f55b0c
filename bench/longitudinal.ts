/**
 * Memory over many real sessions of one person (../shared/benchmarks/longitudinal/, read in place,
 * never copied): its scorer on this build beside its trivial peer (`--peer`: the person's newest
 * sentences per project up to the budget), in the same run. Targets (issue 20): final state recalled
 * ≥ 0.65, stale ≤ 1, junk ≤ 2.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** NIGHTSHIFT_LONGITUDINAL, or shared/benchmarks/longitudinal in a directory above the checkout. */
function setDir(): string | undefined {
  const given = process.env.NIGHTSHIFT_LONGITUDINAL;
  if (given !== undefined) return existsSync(join(given, 'score.mjs')) ? given : undefined;
  for (let dir = ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'benchmarks', 'longitudinal');
    if (existsSync(join(candidate, 'score.mjs'))) return candidate;
  }
  return undefined;
}

const figuresOf = (line: string) => ({
  final: Number(/final recalled \d+\/\d+ \(([\d.]+)\)/.exec(line)?.[1] ?? Number.NaN),
  stale: Number(/stale recalled (\d+)\//.exec(line)?.[1] ?? Number.NaN),
  junk: Number(/junk recalled (\d+)\//.exec(line)?.[1] ?? Number.NaN),
});

export const longitudinalBench: Bench = {
  name: 'longitudinal',
  title: 'many real sessions of one person in time order: the final state recalled after a dream, beside the newest sentences',
  budgetSeconds: 300,
  async run(_o, say) {
    const dir = setDir();
    if (dir === undefined) {
      say('the longitudinal set was not found (set NIGHTSHIFT_LONGITUDINAL to its directory); skipped');
      return [];
    }
    const lines = async (...args: string[]) => (await run('node', [join(dir, 'score.mjs'), ROOT, ...args], { maxBuffer: 64 << 20 })).stdout.trim().split('\n');
    const ours = await lines();
    const peer = await lines('--peer');
    for (const l of ours) say(`nightshift ${l}`);
    say(`peer       ${peer.at(-1) ?? ''}`);
    const a = figuresOf(ours.at(-1) ?? '');
    const p = figuresOf(peer.at(-1) ?? '');
    const figures: Figure[] = [
      atLeast('final state recalled', a.final, 'ratio', 0.65),
      info('peer (newest sentences): final state recalled', p.final, 'ratio'),
      atMost('stale recalled', a.stale, '', 1),
      info('peer: stale recalled', p.stale, ''),
      atMost('junk recalled', a.junk, '', 2),
      info('peer: junk recalled', p.junk, ''),
    ];
    return figures;
  },
};
