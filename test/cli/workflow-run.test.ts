/** `nightshift workflow …` through the CLI against a real daemon: DAG order, failures, retries, output chaining, file errors, restarts, rendering. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonsPerTest, TestDaemon, until } from '../helpers/daemon.js';

let d: TestDaemon;
let dir: string;
beforeAll(async () => {
  d = new TestDaemon();
  await d.start();
  dir = mkdtempSync('/tmp/ns-wf-');
});
afterAll(async () => {
  await d.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
const newDaemon = daemonsPerTest(afterEach);

interface Node {
  name: string;
  state: string;
  needs: string[];
  depth: number;
  attempts: number;
  task?: { id: string; status: string; startedAt?: string; endedAt?: string; exitCode?: number; reason?: string; retryOf?: string };
}
interface View {
  id: string;
  name: string | null;
  state: string;
  tasks: Record<string, string>;
  nodes: Node[];
}

let files = 0;
function file(text: string, ext = 'yaml'): string {
  const f = join(dir, `wf${++files}.${ext}`);
  writeFileSync(f, text);
  return f;
}

async function show(daemon: TestDaemon, id: string): Promise<View> {
  const r = await daemon.cli(['workflow', 'show', id, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as View;
}

const node = (v: View, name: string): Node => {
  const n = v.nodes.find((x) => x.name === name);
  if (!n) throw new Error(`no node ${name}`);
  return n;
};

describe('running', () => {
  it('runs a diamond in order: no task starts before its needs ended; --wait exits 0; each task reads its needs’ output', async () => {
    const f = file(`name: diamond
tasks:
  a:
    command: sleep 0.3; echo A
  b:
    command: sleep 0.2; cat "$NIGHTSHIFT_OUTPUT_A"; echo B
    needs: [a]
  c-x:
    command: [sh, -c, 'sleep 0.1; echo C']
    needs: [a]
  d:
    command: cat "$NIGHTSHIFT_OUTPUT_B" "$NIGHTSHIFT_OUTPUT_C_X"; echo "$NIGHTSHIFT_WORKFLOW"
    needs: [b, c-x]
`);
    const r = await d.cli(['workflow', 'run', f, '--wait']);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^w[0-9]+$/);
    expect(r.stderr).toMatch(/^d +\d+ +b, c-x$/m);
    const v = await show(d, id);
    expect(v).toMatchObject({ name: 'diamond', state: 'succeeded' });
    for (const n of v.nodes) {
      expect(n.state).toBe('succeeded');
      for (const need of n.needs) expect(Date.parse(n.task?.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(node(v, need).task?.endedAt ?? 'x'));
    }
    expect(node(v, 'd').depth).toBe(2);
    const out = await d.cli(['output', v.tasks['d'] ?? '']);
    expect(out.stdout).toBe(`A\nB\nC\n${id}\n`);
    // Its tasks are ordinary tasks, labelled with the workflow and named by the file.
    const ps = JSON.parse((await d.cli(['ps', '--all', '--label', `workflow=${id}`, '--json'])).stdout) as { name: string }[];
    expect(ps.map((t) => t.name).sort()).toEqual(['a', 'b', 'c-x', 'd']);
  });

  it('a failing task skips its dependents; the workflow is failed and --wait exits with its code', async () => {
    const f = file(`tasks:
  ok: {command: 'true'}
  bad: {command: 'exit 4', needs: [ok]}
  after-bad: {command: 'echo never', needs: [bad]}
  any: {command: 'echo ran', needs: [bad], needsAny: true}
`);
    const r = await d.cli(['workflow', 'run', f, '--wait', '--json']);
    expect(r.code).toBe(4);
    const v = JSON.parse(r.stdout) as View;
    expect(v.state).toBe('failed');
    expect(node(v, 'bad')).toMatchObject({ state: 'failed', task: { exitCode: 4 } });
    expect(node(v, 'after-bad')).toMatchObject({ state: 'skipped', task: { reason: `dependency ${v.tasks['bad']} exited 4` } });
    expect(node(v, 'any').state).toBe('succeeded');
  });

  it('a task whose first attempt fails and whose retry succeeds lets its dependents run, reading the retry’s output', async () => {
    const mark = join(dir, 'retry-mark');
    const f = file(`tasks:
  flaky:
    command: if [ -e ${mark} ]; then echo second; else touch ${mark}; echo first; exit 1; fi
    retry: 2
    retryDelay: 300ms
  next:
    command: cat "$NIGHTSHIFT_OUTPUT_FLAKY"
    needs: [flaky]
`);
    const r = await d.cli(['workflow', 'run', f, '--wait', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout) as View;
    expect(node(v, 'flaky')).toMatchObject({ state: 'succeeded', attempts: 2, task: { retryOf: v.tasks['flaky'] } });
    expect((await d.cli(['output', v.tasks['next'] ?? ''])).stdout).toBe('second\n');
  });

  it('run --after waits for the retries of a task that failed (a dependent is not skipped while a retry is pending)', async () => {
    const mark = join(dir, 'after-retry-mark');
    const a = (
      await d.cli(['run', '--retry', '1', '--retry-delay', '0.4', '--', `if [ -e ${mark} ]; then exit 0; else touch ${mark}; exit 1; fi`])
    ).stdout.trim();
    const b = (await d.cli(['run', '--after', a, '--', 'echo', 'dep'])).stdout.trim();
    expect((await d.cli(['wait', b])).code).toBe(0);
    expect((await d.cli(['output', b])).stdout).toBe('dep\n');
  });

  it('kill stops the running task and skips the ones after it', async () => {
    const f = file(`tasks:
  long: {command: 'sleep 30'}
  then: {command: 'echo never', needs: [long]}
`);
    const id = (await d.cli(['workflow', 'run', f])).stdout.trim();
    await until(async () => node(await show(d, id), 'long').state === 'running');
    const k = await d.cli(['workflow', 'kill', id]);
    expect(k.code).toBe(0);
    const v = await show(d, id);
    expect(v.state).toBe('killed');
    expect(node(v, 'long')).toMatchObject({ state: 'failed', task: { status: 'killed' } });
    expect(node(v, 'then').state).toBe('skipped');
  });

  it('a workflow survives a daemon killed mid-run: shown again after the restart, and the rest runs', async () => {
    const own = newDaemon();
    await own.start();
    const gate = join(own.home, 'gate');
    const f = file(`tasks:
  first: {command: 'while [ ! -e ${gate} ]; do sleep 0.05; done; echo one'}
  second: {command: 'cat "$NIGHTSHIFT_OUTPUT_FIRST"', needs: [first]}
`);
    const id = (await own.cli(['workflow', 'run', f])).stdout.trim();
    await until(async () => node(await show(own, id), 'first').state === 'running');
    await own.stop('SIGKILL');
    writeFileSync(gate, '');
    await own.start();
    const v = await until(async () => {
      const w = await show(own, id);
      return w.state === 'succeeded' && w;
    });
    expect((await own.cli(['output', v.tasks['second'] ?? ''])).stdout).toBe('one\n');
    const list = JSON.parse((await own.cli(['workflow', 'list', '--json'])).stdout) as View[];
    expect(list.map((w) => [w.id, w.state])).toEqual([[id, 'succeeded']]);
  });
});

describe('files', () => {
  it('YAML errors say FILE:LINE:COL and the path: unknown needs, unknown keys, bad durations; exit 2', async () => {
    const f = file(`tasks:
  build:
    command: make
  test:
    command: [npm, test]
    needs: [tset]
    timout: 5m
    retryDelay: soon
`);
    const r = await d.cli(['workflow', 'run', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${f}:6:13: tasks.test.needs[0]: unknown task "tset"`);
    expect(r.stderr).toContain(`${f}:7:5: tasks.test.timout: unknown key "timout"`);
    expect(r.stderr).toMatch(new RegExp(`${f}:8:17: tasks.test.retryDelay: must be a duration`));
    expect(r.stdout).toBe('');
  });

  it('JSON errors carry line:col too, and syntax errors point at the place', async () => {
    const f = file('{\n  "tasks": {\n    "a": {"command": "true", "needs": ["zz"]}\n  }\n}\n', 'json');
    const r = await d.cli(['workflow', 'run', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${f}:3:40: tasks.a.needs[0]: unknown task "zz"`);
    const broken = file('{\n  "tasks": {\n    "a": {"command": "true",}\n  }\n}\n', 'json');
    expect((await d.cli(['workflow', 'run', broken])).stderr).toContain(`${broken}:3:29:`);
  });

  it('names a cycle, refuses an empty workflow and a task whose command is not found, and submits nothing', async () => {
    const cyc = file('tasks:\n  a: {command: x, needs: [c]}\n  b: {command: x, needs: [a]}\n  c: {command: x, needs: [b]}\n');
    const r = await d.cli(['workflow', 'run', cyc]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cycle: a → c → b → a');
    const empty = await d.cli(['workflow', 'run', file('tasks: {}\n')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('tasks: the workflow has no tasks');
    const before = (await d.cli(['ps', '--all', '--json'])).stdout;
    const missing = await d.cli(['workflow', 'run', file('tasks:\n  a: {command: "true"}\n  b: {command: [no-such-command-xyz], needs: [a]}\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('command not found: no-such-command-xyz');
    expect((await d.cli(['ps', '--all', '--json'])).stdout).toBe(before);
  });

  it('the daemon checks the body again with the same schema', async () => {
    await expect(d.client.call('runWorkflow', { body: { workflow: { tasks: { a: { command: 'x', needs: ['a'] } } }, cwd: '/' } })).rejects.toThrow(
      /tasks\.a\.needs\.0: task "a" needs itself/,
    );
  });
});

describe('show', () => {
  it('draws the DAG layer by layer: name #id state (duration), and needs', async () => {
    const f = file(`name: render
tasks:
  fetch: {command: 'true'}
  build: {command: 'exit 2', needs: [fetch]}
  docs: {command: 'true', needs: [fetch]}
  ship: {command: 'true', needs: [build, docs]}
`);
    const id = (await d.cli(['workflow', 'run', f, '--wait'])).stdout.trim();
    const v = await show(d, id);
    const out = (await d.cli(['workflow', 'show', id])).stdout;
    const t = (n: string) => v.tasks[n] ?? '';
    expect(out).toMatch(
      new RegExp(
        [
          `^workflow ${id} \\(render\\): failed, 2/4 succeeded`,
          `file: ${f}`,
          'layer 0',
          `  fetch #${t('fetch')} succeeded \\(\\d+ms\\)`,
          'layer 1',
          `  build #${t('build')} failed: exit code 2 \\(\\d+ms\\)`,
          '    needs: fetch',
          `  docs #${t('docs')} succeeded \\(\\d+ms\\)`,
          '    needs: fetch',
          'layer 2',
          `  ship #${t('ship')} skipped: dependency ${t('build')} exited 2`,
          '    needs: build, docs',
          '$',
        ].join('\\n'),
      ),
    );
    // Not a TTY: no colour codes.
    expect(out).not.toContain('\x1b[');
  });

  it('--help for each command; usage errors exit 2; an unknown workflow exits 1', async () => {
    for (const sub of ['run', 'list', 'show', 'kill']) {
      const h = await d.cli(['workflow', sub, '--help']);
      expect(h.code).toBe(0);
      expect(h.stdout).toContain(`workflow ${sub}`);
    }
    expect((await d.cli(['workflow', '--help'])).stdout).toContain('NIGHTSHIFT_OUTPUT_<NAME>');
    expect((await d.cli(['workflow', 'show'])).code).toBe(2);
    expect((await d.cli(['workflow', 'show', 'nope'])).code).toBe(2);
    expect((await d.cli(['workflow', 'run', join(dir, 'missing.yaml')])).code).toBe(2);
    const unknown = await d.cli(['workflow', 'show', 'w999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no workflow w999');
  });
});
