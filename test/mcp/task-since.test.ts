/** MCP `task_since`: the tasks that ended since a time or a cursor, for agents without hooks. */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TasksSinceResponse } from '../../src/api/injections.js';
import { TestDaemon, until } from '../helpers/daemon.js';
import { startMcp, structured, text, type McpSession } from './mcp-client.js';

let daemon: TestDaemon;
let mcp: McpSession;
let cwd: string;
let other: string;

beforeAll(async () => {
  daemon = new TestDaemon();
  await daemon.start();
  cwd = realpathSync(mkdtempSync('/tmp/ns-mcp-since-'));
  other = realpathSync(mkdtempSync('/tmp/ns-mcp-since-other-'));
  mcp = await startMcp(daemon.env, cwd);
});

afterAll(async () => {
  await mcp?.close();
  await daemon?.cleanup();
  for (const d of [cwd, other]) if (d) rmSync(d, { recursive: true, force: true });
});

const ended = async (id: string) => until(async () => (await daemon.client.get(id)).status !== 'running' && (await daemon.client.get(id)).status !== 'queued');

describe('nightshift mcp: task_since', () => {
  it('answers the tasks ended since a time, then only what ends after the cursor; a project filters', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const a = await daemon.client.run({ command: ['sh', '-c', 'echo building; echo "error: missing semicolon"; exit 2'], cwd, name: 'build' });
    const b = await daemon.client.run({ command: ['true'], cwd: other });
    await ended(a.id);
    await ended(b.id);
    const first = structured<TasksSinceResponse>(await mcp.call('task_since', { since }));
    expect(first.tasks.map((t) => t.id)).toEqual([a.id, b.id]);
    expect(first.tasks[0]).toMatchObject({
      label: 'build',
      outcome: 'failed: exit 2',
      failed: true,
      lastLines: ['building', 'error: missing semicolon'],
      read: `nightshift output ${a.id}`,
    });
    const r = await mcp.call('task_since', { since, project: cwd });
    expect(structured<TasksSinceResponse>(r).tasks.map((t) => t.id)).toEqual([a.id]);
    expect(text(r)).toContain(`task ${a.id} (build) failed: exit 2`);

    expect(structured<TasksSinceResponse>(await mcp.call('task_since', { cursor: first.cursor })).tasks).toEqual([]);
    const c = await daemon.client.run({ command: ['sh', '-c', 'exit 0'], cwd, name: 'later' });
    await ended(c.id);
    const next = structured<TasksSinceResponse>(await mcp.call('task_since', { cursor: first.cursor }));
    expect(next.tasks.map((t) => [t.id, t.outcome])).toEqual([[c.id, 'succeeded']]);
    expect((await mcp.call('task_since', { since: 'yesterday' })).isError).toBe(true);
  });
});
