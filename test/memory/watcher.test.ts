import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, TestDaemon, until } from '../helpers/daemon.js';
import { appendClaudeTranscript, writeClaudeTranscript } from '../helpers/transcripts.js';

const newDaemon = daemonsPerTest(afterEach);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('transcript watcher', () => {
  it('ingests a transcript once it has been idle, and again only after it grows', { timeout: 70_000 }, async () => {
    const root = mkdtempSync('/tmp/ns-watch-');
    dirs.push(root);
    const projects = join(root, 'projects', '-home-alice-app');
    mkdirSync(projects, { recursive: true });
    const d = newDaemon({ transcripts: { watch: true, dirs: [join(root, 'projects')], idleSeconds: 1 } });
    await d.start();
    const file = join(projects, 'w1.jsonl');
    writeClaudeTranscript(file, [{ role: 'user', text: 'Always use tabs for indentation in this project.' }], { sessionId: 'w1', cwd: root });
    const first = await until(async () => (await d.client.sessions()).find((s) => s.sessionId === 'w1' && s.state === 'ingested'), 30_000, 100);
    expect(first.offset).toBeGreaterThan(0);
    appendClaudeTranscript(file, [{ role: 'user', text: 'We deploy with `make release` from the main branch.', id: 'w1-b' }], { sessionId: 'w1', cwd: root });
    const second = await until(async () => (await d.client.sessions()).find((s) => s.sessionId === 'w1' && s.offset > first.offset), 30_000, 100);
    expect(second.messages).toBe(2);
    // Plain files that are not transcripts are ignored.
    expect((await d.client.sessions()).length).toBe(1);
  });

  it('can be switched off', async () => {
    const root = mkdtempSync('/tmp/ns-watch-');
    dirs.push(root);
    const d = newDaemon({ transcripts: { watch: false, dirs: [root], idleSeconds: 0.1 } });
    await d.start();
    writeClaudeTranscript(join(root, 'x.jsonl'), [{ role: 'user', text: 'Always use tabs.' }], { sessionId: 'x', cwd: root });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await d.client.sessions()).toHaveLength(0);
  });

  it('watches nothing outside NIGHTSHIFT_HOME unless transcripts.dirs says so', async () => {
    const home = mkdtempSync('/tmp/ns-watch-home-');
    dirs.push(home);
    const projects = join(home, '.claude', 'projects', '-home-alice-app');
    mkdirSync(projects, { recursive: true });
    mkdirSync(join(home, '.codex', 'sessions'), { recursive: true });
    writeClaudeTranscript(join(projects, 'h1.jsonl'), [{ role: 'user', text: 'Always use tabs for indentation in this project.' }], {
      sessionId: 'h1',
      cwd: home,
    });
    const isolated = new TestDaemon({ transcripts: { watch: true, idleSeconds: 0.2 } }, { HOME: home });
    const configured = new TestDaemon({ transcripts: { watch: true, idleSeconds: 0.2, dirs: [join(home, '.claude', 'projects')] } }, { HOME: home });
    try {
      await isolated.start();
      await until(() => isolated.log.includes('no transcript directory to watch (NIGHTSHIFT_HOME is set'), 10_000, 50);
      // The same HOME, the directory named in the config: the transcript is there to be found.
      await configured.start();
      await until(async () => (await configured.client.sessions()).some((s) => s.sessionId === 'h1' && s.state === 'ingested'), 30_000, 100);
      expect(await isolated.client.sessions()).toEqual([]);
    } finally {
      await Promise.all([isolated.cleanup(), configured.cleanup()]);
    }
  });
});
