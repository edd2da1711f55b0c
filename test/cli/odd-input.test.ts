/**
 * Deep and odd input through every surface against a real daemon: a workflow far over the task
 * limit that is also one long ring, names that are URL dot segments, and option values out of range.
 * Each gets the documented answer naming the problem, never a stack trace or "no such endpoint".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { TestDaemon } from '../helpers/daemon.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startMcp, text } from '../mcp/mcp-client.js';

let d: TestDaemon;
let dir: string;
beforeAll(async () => {
  d = new TestDaemon();
  await d.start();
  dir = mkdtempSync('/tmp/ns-odd-');
});
afterAll(async () => {
  await d.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** n tasks, each needing the next, the last needing the first. */
function ring(n: number): { tasks: Record<string, { command: string; needs: string[] }> } {
  const tasks: Record<string, { command: string; needs: string[] }> = {};
  for (let i = 0; i < n; i++) tasks[`t${i}`] = { command: 'true', needs: [`t${(i + 1) % n}`] };
  return { tasks };
}

describe('a workflow of 10,000 tasks in a ring', () => {
  const wf = ring(10_000);

  it('the CLI says "at most 256 tasks" and exits 2, with no stack trace', async () => {
    const f = join(dir, 'ring.json');
    writeFileSync(f, JSON.stringify(wf));
    const r = await d.cli(['workflow', 'run', f]);
    expect(r.stderr).toContain('at most 256 tasks');
    expect(r.stderr).not.toMatch(/RangeError|call stack|unexpected error/);
    expect(r.code).toBe(2);
    // YAML too (a smaller ring: the parser's duplicate-key check makes 10,000 keys take seconds).
    const y = join(dir, 'ring.yaml');
    writeFileSync(
      y,
      `tasks:\n${Object.entries(ring(300).tasks)
        .map(([n, t]) => `  ${n}: { command: "true", needs: [${t.needs[0]}] }`)
        .join('\n')}\n`,
    );
    const ry = await d.cli(['workflow', 'run', y]);
    expect(ry.stderr).toContain('at most 256 tasks');
    expect(ry.code).toBe(2);
  });

  it('the API answers 400 naming the limit', async () => {
    const res = await rawRequest(
      { socketPath: d.paths.socket },
      { method: 'POST', path: '/v1/workflows', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workflow: wf, cwd: dir }) },
    );
    expect(res.body).toContain('at most 256 tasks');
    expect(res.status).toBe(400);
    // The daemon still serves.
    expect((await d.cli(['status'])).code).toBe(0);
  });

  it('MCP answers a tool error naming the limit', async () => {
    const mcp = await startMcp(d.env, dir);
    try {
      const r = await mcp.call('workflow_run', { workflow: JSON.stringify(wf) });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain('at most 256 tasks');
      expect(text(r)).not.toContain('unexpected error');
    } finally {
      await mcp.close();
    }
  });

  it('a ring within the limit is still reported as a cycle, named', async () => {
    const f = join(dir, 'ring3.json');
    writeFileSync(f, JSON.stringify(ring(3)));
    const r = await d.cli(['workflow', 'run', f]);
    expect(r.stderr).toMatch(/cycle: t\d → t\d → t\d → t\d/);
    expect(r.code).toBe(2);
  });
});

describe('names that are dot segments', () => {
  it.each([
    [['group', 'rm', '..'], '..'],
    [['group', 'parallel', '.', '2'], '.'],
    [['monitor', 'check', '..'], '..'],
    [['sessions', 'show', '.'], '.'],
    [['show', '..'], '..'],
  ])('nightshift %j is refused naming the value, exit 2', async (args, value) => {
    const r = await d.cli(args);
    expect(r.stderr).not.toContain('no such endpoint');
    expect(r.stderr).toContain(`"${value}"`);
    expect(r.code).toBe(2);
  });

  it('the typed client refuses them before sending', async () => {
    const err = await d.client.removeGroup('..').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
    expect((err as AppError).message).toContain('".."');
  });

  it('an encoded dot segment reaches its endpoint, which refuses the name (not "no such endpoint")', async () => {
    const res = await rawRequest({ socketPath: d.paths.socket }, { method: 'DELETE', path: '/v1/groups/%2E%2E' });
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('no such endpoint');
  });
});

describe('messages name the option and its real range', () => {
  it('--offset past the largest offset', async () => {
    const r = await d.cli(['output', '--offset', '99999999999999999999999', '1']);
    expect(r.stderr).toContain('--offset');
    expect(r.stderr).toContain('9007199254740991');
    expect(r.stderr).not.toContain('must be a non-negative integer');
    expect(r.code).toBe(2);
  });

  it('--timeout 0', async () => {
    const r = await d.cli(['run', '--timeout', '0', '--', 'true']);
    expect(r.stderr).toContain('--timeout');
    expect(r.stderr).not.toContain('timeoutSeconds');
    expect(r.stderr).toMatch(/above 0|more than 0|greater than 0/);
    expect(r.stderr).toMatch(/20d|20 days/);
    expect(r.code).toBe(2);
  });

  it('a workflow file names its own keys and their ranges, where they are', async () => {
    const f = join(dir, 'ranges.yaml');
    writeFileSync(f, 'tasks:\n  a:\n    command: "true"\n    timeout: 0\n  b:\n    command: "true"\n    retry: 101\n    stall: 8d\n');
    const r = await d.cli(['workflow', 'run', f]);
    expect(r.stderr).toContain(`${f}:4:14: tasks.a.timeout: must be a duration above 0 and at most 20d`);
    expect(r.stderr).toContain(`${f}:7:12: tasks.b.retry: must be a whole number from 0 to 100`);
    expect(r.stderr).toContain(`${f}:8:12: tasks.b.stall: must be a duration at least 1s and at most 7d`);
    expect(r.stderr).not.toMatch(/Seconds|Number must/);
    expect(r.code).toBe(2);
  });

  it('--timeout past its maximum, --retry past 100', async () => {
    const t = await d.cli(['run', '--timeout', '21d', '--', 'true']);
    expect(t.stderr).toContain('--timeout');
    expect(t.stderr).not.toContain('timeoutSeconds');
    expect(t.code).toBe(2);
    const r = await d.cli(['run', '--retry', '101', '--', 'true']);
    expect(r.stderr).toContain('--retry');
    expect(r.stderr).toContain('100');
    expect(r.stderr).not.toMatch(/retry: Number/);
    expect(r.code).toBe(2);
  });
});
