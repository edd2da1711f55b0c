/**
 * Recall keeps what it works out from the store (memory/recall/pools.ts) until the store changes:
 * through the hooks of a real daemon, each write (remember, forget, a dream's merge) shows in the
 * very next session start and prompt, never an answer worked out before it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileFor } from '../../../src/memory/store/memory-file.js';
import { daemonsPerTest, type CliResult, type TestDaemon } from '../../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
/** The prompt hook gives up after 150 ms by default; a loaded test machine may take longer. */
const PATIENT = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000', NIGHTSHIFT_HOOK_TIMEOUT_MS: '10000' };

let sessions = 0;
function context(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}
/** Each call a new session: nothing is held back as already given. */
const start = async (d: TestDaemon, cwd: string) =>
  context(
    await d.cli(['hook', 'session-start'], {
      input: JSON.stringify({ session_id: `s${++sessions}`, cwd, source: 'startup', hook_event_name: 'SessionStart' }),
      env: PATIENT,
    }),
  );
const prompt = async (d: TestDaemon, cwd: string, text: string) =>
  context(
    await d.cli(['hook', 'user-prompt-submit'], {
      input: JSON.stringify({ session_id: `s${++sessions}`, cwd, hook_event_name: 'UserPromptSubmit', prompt: text }),
      env: PATIENT,
    }),
  );

const MERGED = 'API server: it listens on port 8080 in production.';
const FLAGS = 'Feature flags for the checkout live in LaunchDarkly under the project key shop-web.';
const ASK_FLAGS = 'which LaunchDarkly project key holds the checkout feature flags?';
const ASK_PORT = 'which port does the API server listen on in production?';

describe('recall after a write', () => {
  it('the next session start and prompt see a remember, a forget and a dream merge', async () => {
    const d = newDaemon();
    const project = mkdtempSync('/tmp/ns-writes-');
    dirs.push(project);
    // Written as the store's own file: remember would fold the restatement in at once, a dream merges it.
    const memories = [
      { content: 'The API server listens on port 8080.', lastSeenAt: daysAgo(3), reinforcements: 1 },
      { content: MERGED, lastSeenAt: daysAgo(1), reinforcements: 0 },
    ].map((l, i) => ({
      id: `m${String(i).padStart(12, '0')}`,
      type: 'fact',
      stable: true,
      importance: 0.6,
      pinned: false,
      scope: 'project',
      project,
      createdAt: l.lastSeenAt,
      sources: [],
      origin: 'import',
      ...l,
    }));
    const file = fileFor(d.paths.memoryDir, { scope: 'project', project });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project }, memories }));
    await d.start();
    // Both the session start and the prompt have worked out their lists before each write. A block
    // says a restatement once: the session start gives the better ranked of the two, the prompt the
    // one its words match best.
    const first = await start(d, project);
    expect(first).toContain('The API server listens on port 8080.');
    expect(first).not.toContain(MERGED);
    expect(await prompt(d, project, ASK_PORT)).toContain(MERGED);
    expect(await start(d, project)).not.toContain(FLAGS);
    expect(await prompt(d, project, ASK_FLAGS)).not.toContain(FLAGS);

    const r = await d.cli(['remember', '--project', project, '--type', 'instruction', FLAGS, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    expect(await start(d, project)).toContain(FLAGS);
    expect(await prompt(d, project, ASK_FLAGS)).toContain(FLAGS);

    expect((await d.cli(['memories', 'forget', id])).code).toBe(0);
    expect(await start(d, project)).not.toContain(FLAGS);
    expect(await prompt(d, project, ASK_FLAGS)).not.toContain(FLAGS);

    expect((await d.cli(['dream', '--json'])).code).toBe(0);
    expect(await prompt(d, project, ASK_PORT)).not.toContain(MERGED);
    expect(await prompt(d, project, ASK_PORT)).toContain('The API server listens on port 8080.');
  });
});
