import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IngestSummary } from '../src/api/memory.js';
import { writeClaudeTranscript } from './lib/claude-transcript.js';
import { tempDir } from './lib/cleanup.js';
import { memoryCounts, withDaemon } from './lib/daemon.js';
import { statusKiB } from './lib/proc.js';
import { cli } from './lib/spawn.js';
import { fmt, median } from './lib/stats.js';
import { atMost, info, type Bench } from './lib/types.js';

const MiB = 1024 * 1024;
/** Targets are in MB (10^6 bytes); VmRSS comes in KiB. */
const kibToMB = (kib: number) => (kib * 1024) / 1e6;

/** Samples VmRSS of `pid` every `everyMs` until stopped: the peak and the number of samples. */
function rssSampler(pid: number, everyMs: number): { stop: () => { peakKiB: number; samples: number } } {
  let peak = statusKiB(pid, 'VmRSS');
  let samples = 1;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, statusKiB(pid, 'VmRSS'));
      samples++;
    } catch {
      // the daemon died: the ingest itself will report it
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, statusKiB(pid, 'VmRSS'));
      return { peakKiB: peak, samples: samples + 1 };
    },
  };
}

export const ingestBench: Bench = {
  name: 'ingest',
  title: 'Ingesting a 50 MB Claude Code transcript with the heuristic extractor, then again unchanged',
  budgetSeconds: 240,
  async run(o, say) {
    const size = (o.quick ? 5 : 50) * MiB;
    const reRuns = o.quick ? 5 : 15;
    const work = tempDir('ns-bench-ingest-');
    try {
      const cwd = join(work.dir, 'billing');
      mkdirSync(cwd);
      const file = join(work.dir, 'session.jsonl');
      const g0 = performance.now();
      const gen = await writeClaudeTranscript(file, size, { cwd, sessionId: '5f0e8d2a-3b7c-4e19-9a61-2c4d8b7e1f03' });
      say(
        `transcript: ${fmt(gen.bytes / MiB)} MiB, ${gen.lines} lines, ${gen.userPrompts} user prompts (${gen.statements} stating a preference or fact), ` +
          `${gen.toolResults} tool results = ${fmt(gen.toolResultBytes / MiB)} MiB of tool_result text (plus Claude Code's toolUseResult copies); written in ${fmt((performance.now() - g0) / 1000)} s`,
      );
      return await withDaemon({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }, async ({ client, pid, cliEnv }) => {
        const before = statusKiB(pid, 'VmRSS');
        const hwmBefore = statusKiB(pid, 'VmHWM');
        const sampler = rssSampler(pid, 20);
        const run = await cli(['ingest', file, '--json'], cliEnv, 120_000);
        const { peakKiB, samples } = sampler.stop();
        const after = statusKiB(pid, 'VmRSS');
        const hwmAfter = statusKiB(pid, 'VmHWM');
        const summary = IngestSummary.parse(JSON.parse(run.stdout));
        const st = await memoryCounts(client);
        say(
          `\`nightshift ingest FILE --json\`: ${fmt(run.ms)} ms wall (daemon's own durationMs ${summary.durationMs}); format ${summary.format}, extractor ${summary.extractor}, ` +
            `${summary.messages} messages to the extractor, ${summary.malformedLines} malformed lines, bytes ${summary.fromOffset}–${summary.toOffset}; ` +
            `added ${summary.added.length}, reinforced ${summary.reinforced.length}, superseded ${summary.superseded.length}; store ${st.memories} memories, ${st.episodes} episodes`,
        );
        for (const m of summary.added.slice(0, 5)) say(`  added [${m.type}/${m.scope}] ${m.content.slice(0, 110)}`);
        say(
          `daemon VmRSS: before ${fmt(kibToMB(before))} MB, peak ${fmt(kibToMB(peakKiB))} MB (${samples} samples every 20 ms), after ${fmt(kibToMB(after))} MB; VmHWM ${fmt(kibToMB(hwmBefore))} → ${fmt(kibToMB(hwmAfter))} MB`,
        );
        if (summary.unchanged || summary.toOffset !== gen.bytes)
          throw new Error(`ingest stopped at ${summary.toOffset} of ${gen.bytes} bytes (unchanged: ${summary.unchanged})`);

        // The unchanged file again: the typed client's round trip (what a hook pays), then the CLI.
        for (let i = 0; i < 3; i++) await client.ingest({ path: file });
        const again: number[] = [];
        for (let i = 0; i < reRuns; i++) {
          const t0 = performance.now();
          const r = await client.ingest({ path: file });
          again.push(performance.now() - t0);
          if (!r.summary?.unchanged) throw new Error('the re-ingest of an unchanged file was not reported unchanged');
        }
        const cliAgain: number[] = [];
        for (let i = 0; i < 5; i++) cliAgain.push((await cli(['ingest', file, '--json'], cliEnv)).ms);
        say(
          `re-ingest unchanged: client round trip ${again.map(fmt).join(' ')} ms; \`nightshift ingest\` (process included) median ${fmt(median(cliAgain))} ms`,
        );
        return [
          atMost(`ingest ${Math.round(gen.bytes / MiB)} MiB: \`nightshift ingest --json\` wall time`, run.ms / 1000, 's', 5),
          info('ingest: time inside the daemon (summary.durationMs)', summary.durationMs / 1000, 's'),
          atMost('ingest: daemon RSS growth, peak − before', kibToMB(peakKiB - before), 'MB', 250),
          info('ingest: daemon RSS growth, after − before', kibToMB(after - before), 'MB'),
          info(`ingest: memories added (maxPerSession 20; ${gen.statements} statements in the prompts)`, summary.added.length, ''),
          info('ingest: episodes indexed', st.episodes, ''),
          atMost(`re-ingest unchanged: client round trip (median of ${reRuns})`, median(again), 'ms', 50),
          info('re-ingest unchanged: `nightshift ingest` process (median of 5)', median(cliAgain), 'ms'),
        ];
      });
    } finally {
      work.remove();
    }
  },
};
