/**
 * Through the CLI against a real daemon: task outcomes in the session-start block and in
 * one prompt line, the injection ledger (`nightshift injections`), rejecting a memory, and the
 * tokens injected in `nightshift usage`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InjectionsResponse } from '../../src/api/injections.js';
import type { Memory } from '../../src/api/memory.js';
import type { MemoryHistoryResponse } from '../../src/api/memory-browse.js';
import type { UsageResponse } from '../../src/api/model-usage.js';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { daemonsPerTest, tempDirsPerTest, until, type TestDaemon } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-inj-');
const patient = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };

async function runTask(d: TestDaemon, cwd: string, script: string, name?: string): Promise<Task> {
  const t = await d.client.run({ command: ['sh', '-c', script], cwd, ...(name && { name }) });
  return until(async () => {
    const now = await d.client.get(t.id);
    return now.state !== 'running' && now.state !== 'queued' ? now : undefined;
  });
}

async function sessionStart(d: TestDaemon, sessionId: string, cwd: string): Promise<string> {
  const r = await d.cli(['hook', 'session-start'], {
    input: JSON.stringify({ session_id: sessionId, cwd, source: 'startup', hook_event_name: 'SessionStart' }),
  });
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout === '') return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

async function prompt(d: TestDaemon, sessionId: string, cwd: string, text: string): Promise<string> {
  const r = await d.cli(['hook', 'user-prompt-submit'], {
    input: JSON.stringify({ session_id: sessionId, cwd, prompt: text, hook_event_name: 'UserPromptSubmit' }),
    env: patient,
  });
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout === '') return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

const taskIds = (block: string): string[] => [...block.matchAll(/task (\d+) \(/g)].map((m) => m[1] ?? '');

describe('task outcomes reach the agent', () => {
  it('the session-start block lists the tasks of the project that ended since its last session: failed first, last lines clean and masked', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const other = tmp();
    await sessionStart(d, 'before', project);
    const ok = await runTask(d, project, 'echo all good', 'build');
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const bad = await runTask(
      d,
      project,
      `printf '\\033[31mFAIL\\033[0m src/a.test.ts\\nline two\\nusing ${secret}\\nexpected 2, got 3\\n'; exit 1`,
      'npm test',
    );
    const elsewhere = await runTask(d, other, 'exit 4', 'other project');
    const block = await sessionStart(d, 'next', project);
    expect(block).toContain('## Tasks here since your last session');
    expect(taskIds(block)).toEqual([bad.id, ok.id]);
    expect(block).toContain(`task ${bad.id} (npm test) failed: exit 1 after`);
    expect(block).toContain(`nightshift output ${bad.id}`);
    // The last three lines only, ANSI stripped, the token masked.
    expect(block).not.toContain('src/a.test.ts');
    expect(block).toContain('> expected 2, got 3');
    expect(block).not.toContain(secret);
    expect(block).not.toContain('\u001b');
    expect(block).not.toContain(`task ${elsewhere.id} `);
    // The next session of the project: those are from before it began.
    expect(taskIds(await sessionStart(d, 'third', project))).toEqual([]);
  });

  it('at most five tasks, the failed ones first', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await sessionStart(d, 'a', project);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await runTask(d, project, i % 3 === 0 ? 'exit 2' : 'true')).id);
    const shown = taskIds(await sessionStart(d, 'b', project));
    expect(shown).toHaveLength(5);
    expect(shown.slice(0, 3).sort()).toEqual([ids[0], ids[3], ids[6]].sort());
  });

  it('a task that ends during a session gets one prompt line, once; a task waiting at a prompt too', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await sessionStart(d, 's1', project);
    expect(await prompt(d, 's1', project, 'hello')).toBe('');
    const t = await runTask(d, project, 'echo compiling; echo "error TS2322: bad type"; exit 2', 'tsc');
    const first = await prompt(d, 's1', project, 'what next?');
    expect(first.split('\n').filter((l) => l.includes(`task ${t.id} `))).toEqual([
      `nightshift: task ${t.id} (tsc) failed: exit 2 after ${/after (\w+);/.exec(first)?.[1]}; last line: error TS2322: bad type; \`nightshift output ${t.id}\``,
    ]);
    expect(await prompt(d, 's1', project, 'and now?')).toBe('');
    // Another session of the project started before it ended is told too, once.
    await sessionStart(d, 's0', tmp());
    // A task waiting at a prompt.
    const waiting = await d.client.run({ command: ['sh', '-c', 'printf "Password: "; read x'], cwd: project, stallAfterSeconds: 1, name: 'login' });
    await until(async () => {
      const now = await d.client.get(waiting.id);
      return now.state === 'running' && now.attention?.kind === 'prompt';
    }, 15_000);
    const asked = await prompt(d, 's1', project, 'anything?');
    expect(asked).toContain(`task ${waiting.id} (login) is waiting at a prompt`);
    expect(asked).toContain(`nightshift send ${waiting.id}`);
    expect(await prompt(d, 's1', project, 'anything else?')).toBe('');
    await d.client.kill(waiting.id, 'SIGKILL');
  }, 30_000);
});

describe('the injection ledger', () => {
  it('records each injection with its items, why and tokens; `nightshift injections` shows them', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    await d.cli(['remember', '--project', project, '--stable', '--type', 'instruction', 'Use pnpm, never npm, in this repository.']);
    await d.cli(['remember', '--project', project, '--type', 'fact', 'The staging database runs Postgres 15 on port 5433.']);
    await sessionStart(d, 'led-1', project);
    const t = await runTask(d, project, 'exit 1', 'lint');
    const later = JSON.parse(
      (await d.cli(['remember', '--project', project, '--type', 'fact', 'The payments service reads its API keys from Vault at secret/payments.', '--json']))
        .stdout,
    ) as { id: string };
    // The staging database was in the session-start block: the prompt does not give it again.
    await prompt(d, 'led-1', project, 'connect to the staging database, then check where the payments service gets its API keys');
    const r = JSON.parse((await d.cli(['injections', '--session', 'led-1', '--json'])).stdout) as InjectionsResponse;
    expect(r.injections.map((i) => i.event)).toEqual(['prompt', 'session-start']);
    const [p, s] = r.injections;
    expect(s?.items.map((i) => i.kind)).toEqual(['memory', 'memory']);
    expect(s?.items[0]?.why).toContain('standing instruction');
    expect(s?.tokens).toBeGreaterThan(0);
    expect(p?.items.map((i) => [i.kind, i.id])).toEqual([
      ['task', t.id],
      ['memory', later.id],
    ]);
    expect(p?.items[0]?.why).toEqual(['task outcome', 'failed: exit 1']);
    expect(p?.items[1]?.why[0]).toMatch(/^matches the prompt/);
    expect(p?.ledgerMs).toBeLessThan(50);
    expect(r.sessions[0]).toMatchObject({ sessionId: 'led-1', injections: 2, tokens: (s?.tokens ?? 0) + (p?.tokens ?? 0) });
    const shown = await d.cli(['injections', '--session', 'led-1']);
    expect(shown.code, shown.stderr).toBe(0);
    const text = shown.stdout;
    expect(text).toContain('session-start');
    expect(text).toContain('Use pnpm, never npm');
    // Usage: the tokens injected per session beside the extraction spend.
    const usage = JSON.parse((await d.cli(['usage', '--json'])).stdout) as UsageResponse;
    expect(usage.injected?.[0]).toMatchObject({ sessionId: 'led-1', tokens: r.sessions[0]?.tokens });
    expect((await d.cli(['usage'])).stdout).toMatch(/injected: \d+ tokens into 1 session/);
  });

  it('a rejected memory stays out of that project’s next 20 recalls, not another’s, and is back once reinforced', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const other = tmp();
    const text = 'Always run the linter before committing.';
    const m = JSON.parse((await d.cli(['remember', '--user', '--stable', '--type', 'instruction', text, '--json'])).stdout) as { id: string };
    expect(await sessionStart(d, 'r0', project)).toContain(text);
    const rej = await d.cli(['memories', 'reject', m.id, '--project', project]);
    expect(rej.code, rej.stderr).toBe(0);
    expect(rej.stdout).toContain(`rejected ${m.id} in ${project}`);
    for (let i = 1; i <= 20; i++) expect(await sessionStart(d, `r${i}`, project), `recall ${i}`).not.toContain(text);
    expect((await d.cli(['recall', '--project', project])).stdout).not.toContain(text);
    expect(await sessionStart(d, 'o1', other)).toContain(text);
    await d.restart();
    expect(await sessionStart(d, 'r21', project)).not.toContain(text);
    // Said again: reinforced, so shown again.
    await d.cli(['remember', '--user', '--stable', '--type', 'instruction', text]);
    expect(await sessionStart(d, 'r22', project)).toContain(text);
  }, 60_000);

  it('a rejection shows in list, show, --json and history, and `memories unreject` undoes it, for good', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const text = 'Always run the formatter before pushing.';
    const m = JSON.parse((await d.cli(['remember', '--user', '--stable', '--type', 'instruction', text, '--json'])).stdout) as { id: string };
    expect((await d.cli(['memories', 'reject', m.id, '--project', project])).code).toBe(0);

    const shown = JSON.parse((await d.cli(['memories', 'show', m.id, '--json'])).stdout) as Memory;
    expect(shown.rejected).toEqual([{ project, at: expect.any(String), live: true }]);
    expect((await d.cli(['memories', 'show', m.id])).stdout).toMatch(
      new RegExp(`rejected: +\\S+ in ${project} \\(not injected there; undo: \`memories unreject ${m.id}\`\\)`),
    );
    const listed = JSON.parse((await d.cli(['memories', 'list', '--project', project, '--json'])).stdout) as Memory[];
    expect(listed.find((x) => x.id === m.id)?.rejected?.[0]?.live).toBe(true);
    expect((await d.cli(['memories', 'list', '--project', project])).stdout).toContain(`(rejected) ${text}`);
    expect((await d.cli(['memories', 'history', m.id])).stdout).toMatch(new RegExp(`rejected +in ${project}`));

    const undo = await d.cli(['memories', 'unreject', m.id]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toBe(`unrejected ${m.id} in ${project}: may be injected there again\n`);
    expect(await sessionStart(d, 'u1', project)).toContain(text);
    await d.restart();
    expect(await sessionStart(d, 'u2', project)).toContain(text);
    expect((JSON.parse((await d.cli(['memories', 'show', m.id, '--json'])).stdout) as Memory).rejected).toBeUndefined();
    const history = JSON.parse((await d.cli(['memories', 'history', m.id, '--json'])).stdout) as MemoryHistoryResponse;
    expect(history.events.map((e) => [e.kind, e.project])).toEqual([
      ['created', undefined],
      ['rejected', project],
      ['unrejected', project],
    ]);
    // Nothing left to undo: said, exit 1.
    const again = await d.cli(['memories', 'unreject', m.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${m.id} is not rejected`);
  }, 60_000);

  it('reject and unreject refuse a --project that is no directory (exit 2), rather than the repository around it', async () => {
    const d = newDaemon();
    await d.start();
    const repo = tmp();
    mkdirSync(join(repo, '.git'));
    const m = JSON.parse((await d.cli(['remember', '--user', 'Prefer small commits.', '--json'])).stdout) as { id: string };
    for (const dir of ['typo-dir', '/no/such/dir']) {
      const r = await d.cli(['memories', 'reject', m.id, '--project', dir], { cwd: repo });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/no such directory/);
      expect((await d.cli(['memories', 'unreject', m.id, '--project', dir], { cwd: repo })).code).toBe(2);
    }
    expect((JSON.parse((await d.cli(['memories', 'show', m.id, '--json'])).stdout) as Memory).rejected).toBeUndefined();
  }, 60_000);

  it('reject answers unknown ids and injections with a clear error', async () => {
    const d = newDaemon();
    await d.start();
    const r = await d.cli(['memories', 'reject', 'm000000000000']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/m000000000000/);
  });
});

describe('figure: tasks that end while no session runs reach the next session of their project', () => {
  it('50 tasks across 5 projects: each in the next session-start block of its project (100 %), none in another', async () => {
    const d = newDaemon();
    await d.start();
    const projects = Array.from({ length: 5 }, () => tmp());
    let shown = 0;
    let strays = 0;
    for (let round = 0; round < 10; round++) {
      // One task per project, ended (some failed) before any session of the round starts.
      const tasks = await Promise.all(projects.map((p, i) => runTask(d, p, (round + i) % 3 === 0 ? `echo round ${round}; exit 1` : `echo round ${round}`)));
      for (const [i, p] of projects.entries()) {
        const ids = taskIds(await sessionStart(d, `round-${round}-${i}`, p));
        if (ids.includes(tasks[i]?.id ?? '')) shown++;
        strays += ids.filter((id) => id !== tasks[i]?.id).length;
      }
    }
    console.log(`figure: ${shown}/50 tasks in the next session-start block of their project; ${strays} shown in another project or twice`);
    expect(shown).toBe(50);
    expect(strays).toBe(0);
  }, 180_000);
});
