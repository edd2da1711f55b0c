import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_CALL_MARKER } from '../../src/llm/backend.js';
import { daemonsPerTest, tempDirsPerTest, until } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-marker-');
const marked = { [MODEL_CALL_MARKER]: '1' };

function transcript(dir: string, sessionId: string): string {
  const file = join(dir, `${sessionId}.jsonl`);
  writeClaudeTranscript(file, [{ role: 'user', text: 'From now on, always run the linter before committing.' }], { sessionId, cwd: dir });
  return file;
}

describe('hooks inside a model call nightshift started', () => {
  it('do nothing with the marker set (no ingest, no output), and work without it', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    await d.cli(['remember', '--project', dir, '--stable', 'Use pnpm, never npm, in this repository.']);
    const file = transcript(dir, 'marked-1');
    const input = JSON.stringify({ session_id: 'marked-1', transcript_path: file, cwd: dir, reason: 'exit' });
    for (const hook of ['session-end', 'pre-compact', 'session-start', 'user-prompt-submit']) {
      const r = await d.cli(['hook', hook], { input, env: marked });
      expect({ hook, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ hook, code: 0, stdout: '', stderr: '' });
    }
    await sleep(300);
    expect(await d.client.sessions()).toEqual([]);

    const start = await d.cli(['hook', 'session-start'], { input: JSON.stringify({ cwd: dir, source: 'startup' }) });
    expect(start.stdout).toContain('Use pnpm');
    const end = await d.cli(['hook', 'session-end'], { input });
    expect(end.code, end.stderr).toBe(0);
    await until(async () => (await d.client.sessions()).some((s) => s.sessionId === 'marked-1' && s.state === 'ingested'));
  });

  it('with the marker set and no daemon: no spool file, no daemon started', async () => {
    const d = newDaemon(); // never started
    const dir = tmp();
    const input = JSON.stringify({ session_id: 'marked-2', transcript_path: transcript(dir, 'marked-2'), cwd: dir });
    const r = await d.cli(['hook', 'session-end'], { input, env: { ...marked, NIGHTSHIFT_NO_AUTOSTART: '0' } });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await sleep(300);
    expect(existsSync(d.paths.spoolDir) ? readdirSync(d.paths.spoolDir) : []).toEqual([]);
    expect(existsSync(d.paths.lockFile)).toBe(false);
    expect(existsSync(d.paths.socket)).toBe(false);

    // Without it, the same hook spools the session (autostart off here, so nothing is left running).
    const plain = await d.cli(['hook', 'session-end'], { input });
    expect(plain.code, plain.stderr).toBe(0);
    expect(readdirSync(d.paths.spoolDir)).toHaveLength(1);
  });
});
