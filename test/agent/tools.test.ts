/**
 * The agent's tools, one by one: files and search on a temp directory, bash and background tasks
 * and memory against a real daemon. Failures come back as is_error results the model can read.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutSecrets } from '../../src/agent/model-env.js';
import { clipSummary } from '../../src/agent/tools/delegate.js';
import { ToolSet, type ToolContext } from '../../src/agent/tools/index.js';
import { globToRegExp } from '../../src/agent/tools/search.js';
import { TestDaemon, until } from '../helpers/daemon.js';

const tools = ToolSet.standard({ delegate: true });
let daemon: TestDaemon;
let work: string;
let ctx: ToolContext;

beforeAll(async () => {
  daemon = new TestDaemon({ stallAfterSeconds: 600 });
  await daemon.start();
  work = mkdtempSync('/tmp/ns-agent-tools-');
  ctx = {
    cwd: work,
    taskId: '999',
    client: daemon.client,
    env: withoutSecrets({ ...daemon.env, ANTHROPIC_API_KEY: 'sk-ant-secret-value', ANTHROPIC_AUTH_TOKEN: 'tok-secret' }),
    foreground: new Set(),
    model: { name: 'claude-fake', contextWindow: 8000, maxOutputTokens: 1000 },
  };
});

afterAll(async () => {
  await daemon?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

const run = (name: string, input: unknown) => tools.run(name, input, ctx);

describe('tool dispatch', () => {
  it('answers an unknown tool and bad input with is_error results naming the problem', async () => {
    const unknown = await run('rm_rf', {});
    expect(unknown.is_error).toBe(true);
    expect(unknown.content).toMatch(/unknown tool rm_rf; the tools are: bash, read_file/);
    const bad = await run('read_file', { path: 12 });
    expect(bad).toEqual({ is_error: true, content: expect.stringMatching(/invalid input for read_file: path: Expected string/) });
    expect(tools.brief('bash', { command: 'npm   test\n--silent' })).toBe('bash(npm test --silent)');
  });

  it('offers delegate to a top-level agent only', () => {
    expect(tools.names).toContain('delegate');
    expect(ToolSet.standard({ delegate: false }).names).not.toContain('delegate');
  });
});

describe('read_file', () => {
  beforeAll(() => {
    writeFileSync(join(work, 'lines.txt'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  });

  it('reads a slice of numbered lines and says where to go on', async () => {
    const r = await run('read_file', { path: 'lines.txt', offset: 10, limit: 3 });
    expect(r.is_error).toBeUndefined();
    expect(r.content).toBe('    10\tline 10\n    11\tline 11\n    12\tline 12\n[lines 10–12 of 50; read more with offset 13]');
  });

  it('reads a whole small file without a footer, and the end of one with "end of file"', async () => {
    expect((await run('read_file', { path: join(work, 'lines.txt') })).content.split('\n')).toHaveLength(50);
    expect((await run('read_file', { path: 'lines.txt', offset: 49 })).content).toBe('    49\tline 49\n    50\tline 50\n[lines 49–50 of 50; end of file]');
  });

  it('refuses an offset past the end, a missing file, a directory and a binary file', async () => {
    expect(await run('read_file', { path: 'lines.txt', offset: 51 })).toEqual({ is_error: true, content: 'lines.txt has 50 lines; offset 51 is past its end' });
    expect(await run('read_file', { path: 'nope.txt' })).toEqual({ is_error: true, content: 'no such file: nope.txt' });
    mkdirSync(join(work, 'adir'), { recursive: true });
    expect((await run('read_file', { path: 'adir' })).content).toMatch(/adir is a directory/);
    writeFileSync(join(work, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
    expect((await run('read_file', { path: 'blob.bin' })).content).toMatch(/binary file/);
  });
});

describe('write_file and edit_file', () => {
  it('writes a file with its directories', async () => {
    const r = await run('write_file', { path: 'deep/er/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' });
    expect(r.content).toBe('created deep/er/new.ts: 40 B, 2 lines');
    expect(readFileSync(join(work, 'deep/er/new.ts'), 'utf8')).toContain('const b = 2');
  });

  it('replaces an exact, unique match, whatever $-patterns the new text holds', async () => {
    writeFileSync(join(work, 'e.ts'), 'const x = 1;\nconst y = 2;\n');
    const r = await run('edit_file', { path: 'e.ts', old_string: 'const y = 2;', new_string: "const y = '$&$1';" });
    expect(r).toEqual({ content: 'edited e.ts: replaced 1 occurrence at line 2' });
    expect(readFileSync(join(work, 'e.ts'), 'utf8')).toBe("const x = 1;\nconst y = '$&$1';\n");
  });

  it('fails on no match, several matches (unless replace_all), no change and a missing file', async () => {
    writeFileSync(join(work, 'm.ts'), 'a();\nb();\na();\n');
    const none = await run('edit_file', { path: 'm.ts', old_string: 'a ();', new_string: 'c();' });
    expect(none.is_error).toBe(true);
    expect(none.content).toMatch(/old_string was not found in m.ts\. It must match the file exactly/);
    const numbered = await run('edit_file', { path: 'm.ts', old_string: '     1\ta();', new_string: 'c();' });
    expect(numbered.content).toMatch(/leave the numbers out/);
    const many = await run('edit_file', { path: 'm.ts', old_string: 'a();', new_string: 'c();' });
    expect(many).toEqual({ is_error: true, content: expect.stringMatching(/old_string occurs 2 times in m.ts \(lines 1, 3\)/) });
    expect(readFileSync(join(work, 'm.ts'), 'utf8')).toBe('a();\nb();\na();\n');
    expect(await run('edit_file', { path: 'm.ts', old_string: 'a();', new_string: 'c();', replace_all: true })).toEqual({
      content: 'edited m.ts: replaced 2 occurrences',
    });
    expect(readFileSync(join(work, 'm.ts'), 'utf8')).toBe('c();\nb();\nc();\n');
    expect((await run('edit_file', { path: 'm.ts', old_string: 'b();', new_string: 'b();' })).content).toMatch(/the same/);
    expect(await run('edit_file', { path: 'gone.ts', old_string: 'x', new_string: 'y' })).toEqual({ is_error: true, content: 'no such file: gone.ts' });
  });
});

describe('grep and glob', () => {
  let root: string;
  beforeAll(() => {
    root = join(work, 'proj');
    mkdirSync(join(root, 'src/sub'), { recursive: true });
    mkdirSync(join(root, 'node_modules/dep'), { recursive: true });
    writeFileSync(join(root, 'src/a.ts'), 'export function alpha() {}\n// TODO alpha\n');
    writeFileSync(join(root, 'src/sub/b.ts'), 'export const beta = 2; // todo\n');
    writeFileSync(join(root, 'src/c.js'), 'module.exports = { alpha: 1 };\n');
    writeFileSync(join(root, 'node_modules/dep/index.ts'), 'export function alpha() {}\n');
    writeFileSync(join(root, 'many.txt'), Array.from({ length: 300 }, (_, i) => `hit ${i}`).join('\n'));
  });

  it('finds lines as path:line: text, skipping node_modules, filtered by glob', async () => {
    const r = await run('grep', { pattern: 'alpha', path: 'proj', glob: '*.ts' });
    expect(r.content).toBe('src/a.ts:1: export function alpha() {}\nsrc/a.ts:2: // TODO alpha\n[2 matching lines in 1 file (4 searched)]');
    const ci = await run('grep', { pattern: 'todo', path: 'proj/src', ignore_case: true, files_only: true });
    expect(ci.content).toBe('a.ts\nsub/b.ts\n[2 matching lines in 2 files (3 searched)]');
  });

  it('bounds what it returns and says so', async () => {
    const r = await run('grep', { pattern: '^hit', path: 'proj/many.txt', max_results: 5 });
    expect(r.content.split('\n').slice(0, 5)).toEqual([
      'proj/many.txt:1: hit 0',
      'proj/many.txt:2: hit 1',
      'proj/many.txt:3: hit 2',
      'proj/many.txt:4: hit 3',
      'proj/many.txt:5: hit 4',
    ]);
    expect(r.content).toMatch(/\[300 matching lines in 1 file \(1 searched\); only the first 5 matches are shown: narrow the pattern, path or glob\]$/);
    const bad = await run('grep', { pattern: '(' });
    expect(bad.is_error).toBe(true);
    expect(bad.content).toMatch(/invalid regular expression/);
  });

  it('matches globs: **, *, ?, {a,b}, [..]', async () => {
    expect(globToRegExp('**/*.ts').test('src/sub/b.ts')).toBe(true);
    expect(globToRegExp('**/*.ts').test('b.ts')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/sub/b.ts')).toBe(false);
    expect(globToRegExp('src/*.{ts,js}').test('src/c.js')).toBe(true);
    expect(globToRegExp('src/?.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('[ab].txt').test('c.txt')).toBe(false);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
    const r = await run('glob', { pattern: 'src/**/*.ts', path: 'proj' });
    expect(r.content.split('\n').slice(0, -1).sort()).toEqual(['src/a.ts', 'src/sub/b.ts']);
    expect(r.content).toMatch(/\[2 files match \(4 looked at\)\]$/);
    expect((await run('glob', { pattern: '*', path: 'nowhere' })).is_error).toBe(true);
  });

  it('answers a malformed glob with an error result naming it, not a crash', async () => {
    for (const [name, input] of [
      ['glob', { pattern: 'src/{a,b', path: 'proj' }],
      ['grep', { pattern: 'alpha', path: 'proj', glob: 'src/{a,b' }],
      ['glob', { pattern: 'src/[ab', path: 'proj' }],
    ] as const) {
      const r = await run(name, input);
      expect(r.is_error, `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(r.content).toMatch(/^invalid glob pattern "src\/(\{a,b|\[ab)"/);
    }
  });
});

describe('bash and background tasks (through the daemon)', () => {
  it('runs a command in the foreground: output and exit status, non-zero as is_error', async () => {
    const ok = await run('bash', { command: 'echo hello; echo oops >&2' });
    expect(ok).toEqual({ content: 'hello\noops\n[exit code 0]' });
    const bad = await run('bash', { command: 'echo failing; exit 3' });
    expect(bad).toEqual({ is_error: true, content: 'failing\n[exit code 3]' });
    const missing = await run('bash', { command: 'true', cwd: 'no/such/dir' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/does not exist/);
  });

  it('keeps the model secrets from the commands it runs', async () => {
    expect(ctx.env.ANTHROPIC_API_KEY).toBeUndefined();
    const r = await run('bash', { command: 'echo "key=${ANTHROPIC_API_KEY:-none} token=${ANTHROPIC_AUTH_TOKEN:-none}"' });
    expect(r.content).toBe('key=none token=none\n[exit code 0]');
  });

  it('moves a command that outlives its timeout to a background task instead of killing it', async () => {
    const r = await run('bash', { command: 'echo early; sleep 1.2; echo late', timeout_seconds: 0.4 });
    expect(r.is_error).toBeUndefined();
    const m = /moved to background task (\d+) \(not killed\)/.exec(r.content);
    expect(m, r.content).not.toBeNull();
    const id = m?.[1] as string;
    expect(r.content).toMatch(/^early\n/);
    expect(ctx.foreground.size).toBe(0);
    const waited = await run('task_wait', { task_id: id, timeout_seconds: 10 });
    expect(waited.content).toMatch(new RegExp(`^task ${id} ended: exit code 0; output \\(11 B\\):\\nearly\\nlate`));
    const out = await run('task_output', { task_id: id, offset: 6 });
    expect(out.content).toBe(`late\n[task ${id}: exit code 0; bytes 6–11 of 11; that is all of it]`);
  });

  it('starts a background task, sends it input, reads its output by offset, kills another', async () => {
    const started = await run('task_run', { command: 'echo ready; read line; echo "got $line"', stdin: true });
    const id = /started background task (\d+)/.exec(started.content)?.[1] as string;
    expect(id).toBeDefined();
    // Its stdin is open once it runs (a send in the instant between mkfifo and the wrapper's open is refused).
    await until(async () => (await run('task_output', { task_id: id })).content.startsWith('ready\n'));
    expect((await run('task_input', { task_id: id, text: 'hello' })).content).toMatch(`sent 6 bytes to task ${id}`);
    expect((await run('task_wait', { task_id: id, timeout_seconds: 10 })).content).toMatch(/exit code 0.*\nready\ngot hello/s);
    const sleeper = /started background task (\d+)/.exec((await run('task_run', { command: 'sleep 30' })).content)?.[1] as string;
    expect((await run('task_output', { task_id: sleeper })).content).toMatch(/running; bytes 0–0 of 0; no more output yet/);
    expect((await run('task_kill', { task_id: sleeper })).content).toBe(`task ${sleeper} ended: killed by SIGTERM`);
    const again = await run('task_kill', { task_id: sleeper });
    expect(again).toEqual({ is_error: true, content: expect.stringMatching(/task_kill failed: task \d+ is not running/) });
    expect((await run('task_output', { task_id: '424242' })).content).toMatch(/no task 424242/);
  });
});

describe('task tools: one definition with the MCP server', () => {
  it('runs a workflow and shows it, as the MCP server does (workflow_run, workflow_show)', async () => {
    const r = await run('workflow_run', { workflow: 'tasks:\n  a: { command: echo A }\n  b: { command: \'cat "$NIGHTSHIFT_OUTPUT_A"\', needs: [a] }\n' });
    const id = /submitted workflow (w\d+)/.exec(r.content)?.[1] as string;
    expect(id, r.content).toBeDefined();
    const shown = await until(async () => {
      const s = await run('workflow_show', { workflow_id: id });
      return s.content.includes('succeeded, 2/2') && s;
    });
    expect(shown.content).toMatch(/layer 1\n {2}b #\d+ succeeded/);
    const schema = JSON.stringify(tools.definitions.find((t) => t.name === 'workflow_run')?.input_schema);
    expect(schema).toContain('needsAny');
  });

  it('closes stdin unless asked, as task_run does, and says how to start a task that takes input', async () => {
    const id = /started background task (\d+)/.exec((await run('task_run', { command: 'sleep 5' })).content)?.[1] as string;
    const r = await run('task_input', { task_id: Number(id), text: 'y' });
    expect(r.is_error).toBe(true);
    expect(r.content).toContain('task_run {"stdin": true}');
    expect((await run('task_kill', { task_id: id, signal: 'KILL' })).content).toBe(`task ${id} ended: killed by SIGKILL`);
  });

  it('shares the limits: a read is at most 1 MiB, and the schema the model sees says so', async () => {
    const output = tools.definitions.find((t) => t.name === 'task_output');
    expect(JSON.stringify(output?.input_schema)).toContain('"maximum":1048576');
    const r = await run('task_output', { task_id: '1', limit: 2 * 1024 * 1024 });
    expect(r).toEqual({ is_error: true, content: expect.stringMatching(/invalid input for task_output: limit/) });
  });
});

describe('memory', () => {
  it('remembers for the project and recalls it', async () => {
    const r = await run('memory_remember', { content: 'The integration tests need REDIS_URL set to the local instance.', type: 'fact' });
    expect(r.content).toMatch(/^remembered m[0-9a-f]{12} \(fact, project \/.+\): The integration tests need REDIS_URL/);
    const back = await run('memory_recall', { query: 'integration tests REDIS_URL' });
    expect(back.content).toContain('REDIS_URL set to the local instance');
  });
});

describe('delegate summary', () => {
  it('clips a sub-agent summary to 2,000 tokens (chars/4)', () => {
    expect(clipSummary('short')).toBe('short');
    const long = clipSummary('x'.repeat(20_000));
    expect(long.length).toBe(8000);
    expect(long).toMatch(/\[summary cut to 2000 tokens\]$/);
  });
});
