/**
 * Model extraction through the agent CLI: every labelled real session is ingested by a daemon with
 * memory.extractor "claude-cli" (the real `claude -p`, pinned devDependency) against the fake
 * Messages server, and by a heuristic daemon beside it. Per extraction call: input tokens as the
 * fake counts them (JSON length of system + messages + tools / 4), next to a default `claude -p`
 * given the same prompt in the same run; per session: calls, and the wall time the call adds to
 * the ingest. The fake answers "no memories": quality with a real model is not measured here (see
 * `bench/real-sessions.ts --extractor claude-cli`). Recursion: the person's Claude settings (in the
 * temp CLAUDE_CONFIG_DIR) carry hooks on every event that count their runs in a file; an extraction
 * call must run none of them, where the default calls beside it run them (so the count can fail).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeEstimate, reply, startFakeAnthropic, toolUse, type RecordedRequest } from '../test/fakes/anthropic.js';
import { CLAUDE, claudeHome } from '../test/helpers/claude-cli.js';
import { withDaemon } from './lib/daemon.js';
import { fmt, median, percentile } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';
import { corpusDir } from './real-sessions.js';

const OFFLINE = { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1' };

interface Label {
  file: string;
  format: 'claude-code' | 'codex';
}

const answer = (r: RecordedRequest) =>
  (r.body.tools ?? []).some((t) => 'name' in t && t.name === 'StructuredOutput')
    ? reply([toolUse('StructuredOutput', { memories: [] })])
    : reply('{"memories":[]}');

/** The prompt we sent in a recorded request: our system prompt and the last text block of the user turn. */
function promptOf(r: RecordedRequest): string {
  const sys = Array.isArray(r.body.system) ? r.body.system.map((b) => b.text) : [String(r.body.system ?? '')];
  const content = r.body.messages[0]?.content;
  const blocks = Array.isArray(content) ? content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [String(content ?? '')];
  return `${sys[sys.length - 1] ?? ''}\n\n${blocks[blocks.length - 1] ?? ''}`;
}

/** A default `claude -p` (no flags but the model and JSON output) given the same prompt on stdin. */
function defaultCall(env: Record<string, string>, cwd: string, prompt: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE, ['-p', '--output-format', 'json', '--model', 'claude-haiku-4-5'], { env, cwd, stdio: ['pipe', 'ignore', 'ignore'] });
    child.once('error', reject);
    child.once('close', () => resolve());
    child.stdin.end(prompt);
  });
}

/** Hooks on every event in the person's settings, each adding a line to the returned file when it runs. */
function countingHooks(configDir: string): () => number {
  const log = join(configDir, 'hook-runs.log');
  const script = join(configDir, 'count-hook.sh');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(script, `#!/bin/sh\necho "$1" >> ${log}\n`);
  chmodSync(script, 0o755);
  const events = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd', 'PreCompact'];
  const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: `${script} ${e}` }] }]]));
  writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ hooks }));
  return () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
}

export const modelCliBench: Bench = {
  name: 'model-cli',
  title: 'model extraction through the agent CLI (claude -p against the fake Messages API) beside a default claude -p',
  budgetSeconds: 900,
  async run(o, say) {
    const dir = corpusDir();
    if (dir === undefined) {
      say('the real-sessions corpus was not found (set NIGHTSHIFT_REAL_SESSIONS to its directory); skipped');
      return [];
    }
    const labels = (JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Label[]).slice(0, o.quick ? 6 : undefined);
    const fake = await startFakeAnthropic({ defaultStep: answer });
    const home = claudeHome(fake.url);
    const hookRuns = countingHooks(home.env['CLAUDE_CONFIG_DIR'] ?? join(home.dir, '.claude'));
    try {
      const ingestAll = (config: Record<string, unknown>) =>
        withDaemon(
          config,
          async (d) => {
            const out: { ms: number; calls: RecordedRequest[] }[] = [];
            for (const l of labels) {
              const before = fake.requests.length;
              const r = await d.client.ingest({ path: join(dir, l.file), format: l.format });
              out.push({ ms: r.summary?.durationMs ?? 0, calls: fake.requests.slice(before) });
            }
            return out;
          },
          { env: home.env },
        );
      const heuristic = await ingestAll({ transcripts: { watch: false }, memory: { extractor: 'heuristic' } });
      const cli = await ingestAll({ transcripts: { watch: false }, memory: { extractor: 'claude-cli', claudePath: CLAUDE, model: 'claude-haiku-4-5' } });
      const recursive = hookRuns();
      const calls = cli.flatMap((s) => s.calls);
      const ours = calls.map((r) => fakeEstimate(r.body));
      const added = cli.map((s, i) => s.ms - (heuristic[i]?.ms ?? 0)).filter((_, i) => (cli[i]?.calls.length ?? 0) > 0);
      const perSession = cli.map((s) => s.calls.length);

      // The same prompts through a default `claude -p`: only the switches that keep it off the network.
      const sample = o.quick ? calls.slice(0, 3) : calls;
      const env = { ...home.env, ...OFFLINE };
      const defaults: number[] = [];
      for (const r of sample) {
        const before = fake.requests.length;
        await defaultCall(env, home.dir, promptOf(r));
        const first = fake.requests[before];
        if (first !== undefined) defaults.push(fakeEstimate(first.body));
      }
      const defaultHookRuns = hookRuns() - recursive;
      const ratio = median(defaults.map((d, i) => (ours[i] ?? 0) / d));
      say(
        `${labels.length} sessions, ${calls.length} extraction calls (${perSession.filter((n) => n === 0).length} sessions with nothing the person said: no call)`,
      );
      say(
        `input tokens per call: median ${fmt(median(ours))}, p95 ${fmt(percentile(ours, 95))}; default claude -p with the same prompt: median ${fmt(median(defaults))}`,
      );
      say(`wall time added per session end: median ${fmt(median(added))} ms, p95 ${fmt(percentile(added, 95))} ms`);
      say(
        `hooks of the person's Claude settings run by the ${calls.length} extraction calls: ${recursive}; by the ${sample.length} default calls: ${defaultHookRuns}`,
      );
      const figures: Figure[] = [
        atMost('input tokens per extraction call (median)', median(ours), 'tokens', 8000),
        atMost('input tokens per extraction call (p95)', percentile(ours, 95), 'tokens', 10000),
        info('default claude -p, same prompt: input tokens (median)', median(defaults), 'tokens', 'same run, same fake'),
        atMost('ours / default claude -p, input tokens per call (median)', ratio, 'ratio', 0.5),
        atMost('calls per session (median)', median(perSession), '', 1),
        info('calls per session (max)', Math.max(...perSession), ''),
        atMost('wall time added per session end (median)', median(added), 'ms', 5000),
        info('wall time added per session end (p95)', percentile(added, 95), 'ms'),
        atMost('hook runs set off by extraction calls (recursion)', recursive, '', 0),
        info('hook runs set off by the default claude -p calls (same settings)', defaultHookRuns, '', 'shows the count works'),
      ];
      return figures;
    } finally {
      await fake.close();
      home.cleanup();
    }
  },
};
