/**
 * The Claude Code hook commands end to end, as Claude Code runs them: `node dist/cli.js hook
 * session-start|session-end|pre-compact` with the hook JSON on stdin, against a real daemon holding
 * memories for the project and a real transcript on disk; wall time from spawn to the close of the
 * hook's output. Beside them in the same rounds, `node -e 0`: what any Node program costs to start
 * here. A hook is a Node program, so the honest yardstick is that floor, and the target is a ratio
 * to it. Rounds rotate the order of the four commands so that drift hits them alike.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeClaudeTranscript } from './lib/claude-transcript.js';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { memorySentence, rng } from './lib/memgen.js';
import { CLI, timeNode } from './lib/spawn.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';

/** A hook may cost at most this many times `node -e 0` (median of the per-round ratios). */
const RATIO_TARGET = 1.3;
const TRANSCRIPT_BYTES = 2 * 1024 * 1024;

type Name = 'node -e 0' | 'session-start' | 'session-end' | 'pre-compact' | 'user-prompt-submit';
const NAMES: Name[] = ['node -e 0', 'session-start', 'session-end', 'pre-compact', 'user-prompt-submit'];
/** The prompt hook holds up every prompt: its own target, on the slow end (p95). */
const PROMPT_P95_MS = 150;

export const hooksBench: Bench = {
  name: 'hooks',
  title: 'Claude Code hooks end to end (real daemon, real transcript) beside node -e 0',
  budgetSeconds: 240,
  async run(o, say) {
    const rounds = o.quick ? 5 : 21;
    const work = tempDir('ns-bench-hooks-');
    try {
      return await withDaemon({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } }, async ({ client, cliEnv, paths }) => {
        const project = work.dir;
        const r = rng(11);
        const sentences: string[] = [];
        for (let i = 0; i < 40; i++) {
          const content = memorySentence(r).text;
          sentences.push(content);
          await client.remember({ content, project, stable: i % 2 === 0 });
        }
        // A prompt about one of the memories, in a new session each round: real work every time.
        const prompt = `please look at this again: ${sentences[7] ?? ''}`;
        let promptSession = 0;
        const transcript = join(work.dir, 'session.jsonl');
        const sessionId = 'bench-hooks-session';
        const t = await writeClaudeTranscript(transcript, TRANSCRIPT_BYTES, { cwd: project, sessionId });
        say(`project with 40 memories; transcript ${fmt(t.bytes / 1024 / 1024)} MiB (${t.lines} lines); ${rounds} rounds, order rotated each round`);
        const input: Record<Name, string | undefined> = {
          'node -e 0': undefined,
          'session-start': JSON.stringify({
            session_id: sessionId,
            transcript_path: transcript,
            cwd: project,
            hook_event_name: 'SessionStart',
            source: 'startup',
          }),
          'session-end': JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' }),
          'pre-compact': JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: project, hook_event_name: 'PreCompact', trigger: 'auto' }),
          'user-prompt-submit': undefined,
        };
        const inputOf = (n: Name) =>
          n === 'user-prompt-submit'
            ? JSON.stringify({
                session_id: `${sessionId}-${++promptSession}`,
                transcript_path: transcript,
                cwd: project,
                hook_event_name: 'UserPromptSubmit',
                prompt,
              })
            : input[n];
        const args = (n: Name) => (n === 'node -e 0' ? ['-e', '0'] : [CLI, 'hook', n]);
        const ms: Record<Name, number[]> = { 'node -e 0': [], 'session-start': [], 'session-end': [], 'pre-compact': [], 'user-prompt-submit': [] };
        const ratios: Record<Name, number[]> = { 'node -e 0': [], 'session-start': [], 'session-end': [], 'pre-compact': [], 'user-prompt-submit': [] };
        // One warm-up round: page cache, the first (real) ingest of the transcript.
        for (let round = -1; round < rounds; round++) {
          const order = NAMES.map((_, i) => NAMES[(i + Math.max(0, round)) % NAMES.length] as Name);
          const took = {} as Record<Name, number>;
          for (const n of order) {
            const res = await timeNode(args(n), cliEnv, 30_000, inputOf(n));
            if (res.code !== 0) throw new Error(`${n} exited ${res.code}: ${res.stderr.slice(0, 500)}`);
            // Each hook must have done its real job, not bailed out early.
            if ((n === 'session-start' || n === 'user-prompt-submit') && !res.stdout.includes('additionalContext'))
              throw new Error(`${n} printed no context: ${res.stdout.slice(0, 200)} ${res.stderr.slice(0, 200)}`);
            if ((n === 'session-end' || n === 'pre-compact') && res.stderr !== '')
              throw new Error(`${n} did not hand the transcript over: ${res.stderr.slice(0, 300)}`);
            took[n] = res.ms;
          }
          if (round < 0) continue;
          for (const n of NAMES) {
            ms[n].push(took[n]);
            ratios[n].push(took[n] / took['node -e 0']);
          }
        }
        const sessions = await client.sessions();
        if (!sessions.some((s) => s.path === transcript && s.state === 'ingested')) throw new Error('the hooks never got the transcript ingested');
        const spooled = existsSync(paths.spoolDir) ? readdirSync(paths.spoolDir).length : 0;
        if (spooled > 0) throw new Error(`${spooled} session ends were spooled: the daemon did not take them`);
        for (const n of NAMES)
          say(
            `${n.padEnd(14)} p50 ${fmt(median(ms[n]))} ms, p90 ${fmt(percentile(ms[n], 90))} ms, min ${fmt(Math.min(...ms[n]))} ms; ratio to node -e 0 (per round) median ${fmt(median(ratios[n]))}`,
          );
        const figures: Figure[] = [
          info('node -e 0 (floor, same rounds), p50', median(ms['node -e 0']), 'ms', `p90 ${fmt(percentile(ms['node -e 0'], 90))} ms`),
        ];
        for (const n of NAMES.slice(1)) {
          figures.push(atMost(`hook ${n} / node -e 0 (median of per-round ratios)`, median(ratios[n]), '×', RATIO_TARGET));
          figures.push(info(`hook ${n}, p50`, median(ms[n]), 'ms', `p90 ${fmt(percentile(ms[n], 90))} ms`));
        }
        figures.push(atMost('hook user-prompt-submit, p95', percentile(ms['user-prompt-submit'], 95), 'ms', PROMPT_P95_MS));
        return figures;
      });
    } finally {
      work.remove();
    }
  },
};
