/**
 * Prompt-time recall through `nightshift hook user-prompt-submit`, as Claude Code runs it (stdin JSON,
 * a real daemon with the memories of bench/lib/prompt-set.ts). What it injects: for each prompt
 * about a stored memory, whether that memory comes back; for each unrelated prompt, whether anything
 * does (the target is nothing at all). The recall scores of both kinds are printed, which is what
 * the threshold in src/memory/recall/prompt-recall.ts was chosen from. Then the latency end to end, beside
 * `node -e 0` in the same rounds (order alternated): p50, p95 and the per-round ratio; and, when there
 * is a baseline build (lib/restart-home.ts `optionalBaseline`: NIGHTSHIFT_BASELINE_REF or _CLI), the
 * baseline's own hook against its own daemon holding the same memories, in the same rounds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { MEMORIES, RELATED, UNRELATED } from './lib/prompt-set.js';
import { homePaths, optionalBaseline, startDaemon, writeConfig, type Running } from './lib/restart-home.js';
import { CLI, timeNode, type Spawned } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const P95_TARGET_MS = 150;
const RATIO_TARGET = 1.3;

export const promptRecallBench: Bench = {
  name: 'prompt-recall',
  title: 'hook user-prompt-submit: what it injects for related and unrelated prompts, and its latency beside node -e 0',
  budgetSeconds: 240,
  async run(o, say) {
    const rounds = o.quick ? 7 : 41;
    const work = tempDir('ns-bench-prompt-');
    const base = optionalBaseline(say);
    let baseDaemon: Running | undefined;
    try {
      return await withDaemon({ transcripts: { watch: false } }, async ({ client, cliEnv }) => {
        const project = join(work.dir, 'app');
        mkdirSync(project);
        const ids: string[] = [];
        for (const m of MEMORIES)
          ids.push((await client.remember({ content: m.content, type: m.type, ...(m.user ? { scope: 'user' as const } : { project }) })).id);
        let session = 0;
        const hook = (prompt: string, sessionId = `bench-${++session}`) =>
          timeNode(
            [CLI, 'hook', 'user-prompt-submit'],
            cliEnv,
            30_000,
            JSON.stringify({ session_id: sessionId, transcript_path: join(work.dir, 'none.jsonl'), cwd: project, hook_event_name: 'UserPromptSubmit', prompt }),
          );
        const injected = (stdout: string): string =>
          stdout.trim() ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '';
        const topScore = async (prompt: string, id?: string) => {
          const r = await client.recall({ project, query: prompt });
          const own = id === undefined ? undefined : r.items.find((i) => i.id === id);
          return { top: r.items[0]?.score ?? 0, own: own?.score ?? 0 };
        };

        let hits = 0;
        const related: number[] = [];
        for (const r of RELATED) {
          const res = await hook(r.prompt);
          if (res.code !== 0 || res.stderr) throw new Error(`hook exited ${res.code}: ${res.stderr.slice(0, 300)}`);
          const ok = injected(res.stdout).includes((MEMORIES[r.memory] as { content: string }).content);
          if (ok) hits++;
          const s = await topScore(r.prompt, ids[r.memory]);
          related.push(s.own);
          say(`related   ${ok ? 'injected' : 'MISSED  '} score ${fmt(s.own).padStart(5)}  ${r.prompt}`);
        }
        let falsePositives = 0;
        const unrelated: number[] = [];
        for (const p of UNRELATED) {
          const res = await hook(p);
          if (res.code !== 0 || res.stderr) throw new Error(`hook exited ${res.code}: ${res.stderr.slice(0, 300)}`);
          const got = injected(res.stdout);
          if (got) falsePositives++;
          const s = await topScore(p);
          unrelated.push(s.top);
          say(
            `unrelated ${got ? 'INJECTED' : 'nothing '} top score ${fmt(s.top).padStart(5)}  ${p}${got ? ` → ${got.replace(/\n/g, ' | ').slice(0, 120)}` : ''}`,
          );
        }
        const again = await hook(RELATED[1]?.prompt ?? '', 'bench-repeat');
        const repeat = await hook(RELATED[1]?.prompt ?? '', 'bench-repeat');
        const repeated = injected(again.stdout) !== '' && injected(repeat.stdout) !== '' ? 1 : 0;

        // The baseline build's daemon with the same memories, and its own hook (the same prompts).
        let baseHook: ((prompt: string) => Promise<Spawned>) | undefined;
        if (base) {
          const home = join(work.dir, 'base-home');
          mkdirSync(home);
          writeConfig(homePaths(home));
          baseDaemon = await startDaemon(base.cli, home);
          for (const m of MEMORIES)
            await baseDaemon.client.remember({ content: m.content, type: m.type, ...(m.user ? { scope: 'user' as const } : { project }) });
          const env = { ...cliEnv, NIGHTSHIFT_HOME: home };
          let n = 0;
          baseHook = (prompt: string) =>
            timeNode(
              [base.cli, 'hook', 'user-prompt-submit'],
              env,
              30_000,
              JSON.stringify({
                session_id: `base-${++n}`,
                transcript_path: join(work.dir, 'none.jsonl'),
                cwd: project,
                hook_event_name: 'UserPromptSubmit',
                prompt,
              }),
            );
        }

        // Latency: a related prompt in a new session each time (real work: recall, match, record),
        // `node -e 0` and (with a baseline) the baseline's hook, in an order that turns each round.
        const ms: number[] = [];
        const floor: number[] = [];
        const ratios: number[] = [];
        const baseMs: number[] = [];
        let baseInjected = 0;
        const prompt = RELATED[2]?.prompt ?? '';
        const runs: (() => Promise<Spawned>)[] = [
          () => hook(prompt),
          () => timeNode(['-e', '0'], cliEnv),
          ...(baseHook ? [() => (baseHook as (p: string) => Promise<Spawned>)(prompt)] : []),
        ];
        for (let round = -2; round < rounds; round++) {
          const got: Spawned[] = [];
          for (let k = 0; k < runs.length; k++) {
            const i = (k + round + runs.length * 2) % runs.length;
            got[i] = await (runs[i] as () => Promise<Spawned>)();
          }
          const [h, n, b] = got as [Spawned, Spawned, Spawned | undefined];
          if (!injected(h.stdout)) throw new Error(`the timed hook injected nothing: ${h.stdout} ${h.stderr}`);
          if (round < 0) continue;
          ms.push(h.ms);
          floor.push(n.ms);
          ratios.push(h.ms / n.ms);
          if (b) {
            baseMs.push(b.ms);
            if (injected(b.stdout)) baseInjected++;
          }
        }
        say(
          `latency over ${rounds} rounds: hook p50 ${fmt(median(ms))} ms, p95 ${fmt(percentile(ms, 95))} ms; node -e 0 p50 ${fmt(median(floor))} ms, p95 ${fmt(percentile(floor, 95))} ms` +
            (baseMs.length
              ? `; baseline ${base?.ref} hook p50 ${fmt(median(baseMs))} ms, p95 ${fmt(percentile(baseMs, 95))} ms (injected in ${baseInjected} of ${baseMs.length})`
              : ''),
        );
        const figures: Figure[] = [
          atMost('unrelated prompts that injected anything', falsePositives, `of ${UNRELATED.length}`, 0),
          atLeast('related prompts that injected their memory (share)', hits / RELATED.length, '', 0.8),
          info('related: the memory’s recall score, min / median', Math.min(...related), '', `median ${fmt(median(related))}`),
          info('unrelated: the best recall score, max / median', Math.max(...unrelated), '', `median ${fmt(median(unrelated))}`),
          atMost('the same prompt again in the same session injected again', repeated, '', 0),
          atMost('hook user-prompt-submit end to end, p95', percentile(ms, 95), 'ms', P95_TARGET_MS),
          info('hook user-prompt-submit end to end, p50', median(ms), 'ms', `node -e 0 p50 ${fmt(median(floor))} ms, p95 ${fmt(percentile(floor, 95))} ms`),
          atMost('hook user-prompt-submit / node -e 0 (median of per-round ratios)', median(ratios), '×', RATIO_TARGET),
        ];
        if (baseMs.length)
          figures.push(
            info(`baseline ${base?.ref}: hook user-prompt-submit p95 (same rounds)`, percentile(baseMs, 95), 'ms', `p50 ${fmt(median(baseMs))} ms`),
            info('hook p95, this build ÷ baseline', percentile(ms, 95) / percentile(baseMs, 95), '×', `p50 ${fmt(median(ms) / median(baseMs))} ×`),
          );
        return figures;
      });
    } finally {
      await baseDaemon?.stop();
      base?.remove();
      work.remove();
    }
  },
};
