import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, until } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-hook-');

describe('Claude Code hooks', () => {
  it('session-start prints the recalled memories as SessionStart additionalContext', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    const r = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'x', cwd: project, source: 'startup', hook_event_name: 'SessionStart' }) });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('Use pnpm, never npm');
  });

  it('session-start prints nothing and exits 0 when no daemon answers', async () => {
    const d = newDaemon(); // never started; NIGHTSHIFT_NO_AUTOSTART=1
    const started = Date.now();
    const r = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ cwd: tmp(), source: 'startup' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('session-end hands the transcript over and returns at once; the daemon ingests it', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'end.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'From now on, always write commit messages in the imperative mood.' }], { sessionId: 'end-1', cwd: dir });
    const r = await d.cli(['hook', 'session-end'], { input: JSON.stringify({ session_id: 'end-1', transcript_path: file, cwd: dir, reason: 'exit', hook_event_name: 'SessionEnd' }) });
    expect(r.code, r.stderr).toBe(0);
    const sessions = await until(async () => {
      const s = await d.client.sessions();
      return s.find((x: SessionRecord) => x.state === 'ingested') ? s : undefined;
    });
    expect(sessions[0]).toMatchObject({ sessionId: 'end-1', reason: 'exit' });
    expect((await d.cli(['recall', '--project', dir])).stdout).toContain('imperative mood');
  });

  it('session-end spools the session when the daemon is down; the next daemon ingests it', async () => {
    const d = newDaemon();
    const dir = tmp();
    const file = join(dir, 'late.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'Always use tabs for indentation.' }], { sessionId: 'late-1', cwd: dir });
    const r = await d.cli(['hook', 'pre-compact'], { input: JSON.stringify({ session_id: 'late-1', transcript_path: file, cwd: dir, trigger: 'auto' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(d.paths.spoolDir)).toHaveLength(1);
    await d.start();
    await until(async () => (await d.client.sessions()).some((s) => s.sessionId === 'late-1' && s.state === 'ingested'));
    await until(() => readdirSync(d.paths.spoolDir).length === 0);
  });

  it('rejects hook input that is not JSON', async () => {
    const d = newDaemon();
    await d.start();
    const r = await d.cli(['hook', 'session-end'], { input: 'not json' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('not valid JSON');
  });
});
