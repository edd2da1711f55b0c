import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/api-client.js';
import type { Memory, RecallResponse, SearchHit } from '../../src/api/memory.js';
import { AppError } from '../../src/errors.js';
import { ToolSet } from '../../src/agent/tools/index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { TestDaemon } from '../helpers/daemon.js';
import { startMcp, structured, text, type McpSession } from './mcp-client.js';

const memory = (over: Partial<Memory> = {}): Memory => ({
  id: 'm0123456789ab',
  content: 'we use pnpm, never npm',
  type: 'preference',
  scope: 'project',
  project: '/repo',
  stable: true,
  pinned: false,
  importance: 0.7,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastSeenAt: '2025-01-01T00:00:00.000Z',
  reinforcements: 0,
  sources: [],
  origin: 'manual',
  ...over,
});

/** A stand-in for the API client that records calls; the MCP server under test talks to it in memory. */
function fakeApi() {
  const calls: [string, unknown][] = [];
  let failWith: AppError | undefined;
  const api = {
    remember: async (req: unknown) => (calls.push(['remember', req]), memory()),
    recall: async (req: unknown): Promise<RecallResponse> => {
      calls.push(['recall', req]);
      return {
        project: '/repo',
        query: 'pnpm',
        budget: 500,
        tokens: 12,
        considered: 3,
        items: [
          { kind: 'memory', id: 'm0123456789ab', text: 'we use pnpm, never npm', type: 'preference', scope: 'project', score: 0.9, tokens: 8, sources: [] },
          {
            kind: 'episode',
            id: 's1:u1',
            text: 'switched the lockfile to pnpm',
            type: 'episode',
            scope: 'project',
            score: 0.4,
            tokens: 4,
            sources: [],
            at: '2025-01-02T00:00:00Z',
          },
        ],
      };
    },
    search: async (q: unknown): Promise<SearchHit[]> => {
      calls.push(['search', q]);
      return [{ sessionId: 's1', messageId: 'u1', project: null, role: 'user', kind: 'text', text: 'p'.repeat(5000), score: 1.5 }];
    },
    memoryAction: async (id: string, action: string) => {
      calls.push([action, id]);
      return memory({ id, archivedAt: '2025-01-03T00:00:00.000Z' });
    },
  };
  const run = async <T>(fn: (c: ApiClient) => Promise<T>): Promise<T> => {
    if (failWith) throw failWith;
    return fn(api as unknown as ApiClient);
  };
  return { calls, run, fail: (e: AppError | undefined) => (failWith = e) };
}

describe('MCP memory tools (in-memory transport, recorded API calls)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  let client: Client;
  let fake: ReturnType<typeof fakeApi>;
  let repo: string;

  beforeAll(async () => {
    repo = realpathSync(mkdtempSync('/tmp/ns-mcp-repo-'));
    dirs.push(repo);
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    fake = fakeApi();
    const server = createMcpServer(fake.run, { cwd: join(repo, 'src', 'deep') });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 't', version: '0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    await client.listTools();
  });
  afterEach(() => {
    fake.calls.length = 0;
    fake.fail(undefined);
  });
  const call = async (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as ReturnType<McpSession['call']>;

  it('offers the memory and task tools the agent offers under the same names, with the same inputs (one definition)', async () => {
    const mcpTools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const agent = ToolSet.standard({ delegate: false }).definitions;
    const shared = agent.filter((t) => /^(task|workflow|memory|session)_/.test(t.name));
    expect(shared.map((t) => t.name)).toEqual(expect.arrayContaining(['memory_recall', 'memory_remember', 'task_run', 'task_output', 'workflow_run']));
    for (const t of shared) {
      if (t.name === 'task_wait') continue; // the agent's alone: an MCP call has its own timeout
      const props = mcpTools.get(t.name)?.inputSchema.properties;
      expect(props, t.name).toBeDefined();
      expect(Object.keys(t.input_schema.properties ?? {}).sort(), t.name).toEqual(Object.keys(props ?? {}).sort());
    }
  });

  it('remember defaults to the git root of the server cwd as project; user scope names none', async () => {
    const r = await call('memory_remember', { content: '  we use pnpm, never npm ', type: 'preference', stable: true });
    expect(fake.calls).toEqual([['remember', { content: 'we use pnpm, never npm', scope: 'project', project: repo, stable: true, type: 'preference' }]]);
    expect(structured(r)).toMatchObject({ id: 'm0123456789ab', type: 'preference', stable: true, created_at: '2025-01-01T00:00:00.000Z' });
    expect(text(r)).toContain('remembered m0123456789ab (preference, project /repo, stable)');
    await call('memory_remember', { content: 'I prefer tabs', scope: 'user' });
    expect(fake.calls[1]).toEqual(['remember', { content: 'I prefer tabs', scope: 'user' }]);
  });

  it('recall passes project, query and budget and renders the block', async () => {
    const r = await call('memory_recall', { query: 'pnpm', budget: 500 });
    expect(fake.calls).toEqual([['recall', { project: repo, query: 'pnpm', budget: 500 }]]);
    expect(structured<{ items: unknown[] }>(r).items).toHaveLength(2);
    expect(text(r)).toContain('- [preference] we use pnpm, never npm (m0123456789ab)');
    expect(text(r)).toContain('- [past session 2025-01-02T00:00:00Z] switched the lockfile to pnpm');
    await call('memory_recall', { project: '/elsewhere' });
    expect(fake.calls[1]).toEqual(['recall', { project: '/elsewhere' }]);
  });

  it('session_search maps the query, caps each excerpt; memory_forget archives', async () => {
    const r = await call('session_search', { query: 'pnpm lockfile' });
    expect(fake.calls[0]).toEqual(['search', { q: 'pnpm lockfile', limit: 10 }]);
    const hit = structured<{ hits: { session_id: string; text: string }[] }>(r).hits[0];
    expect(hit?.session_id).toBe('s1');
    expect(hit?.text.length).toBeLessThan(1100);
    expect(hit?.text).toContain('[4000 more characters]');
    const f = await call('memory_forget', { id: 'm0123456789ab' });
    expect(fake.calls[1]).toEqual(['forget', 'm0123456789ab']);
    expect(structured(f)).toMatchObject({ archived_at: '2025-01-03T00:00:00.000Z' });
    expect((await call('session_search', { query: 'x', limit: 51 })).isError).toBe(true);
  });

  it('turns API errors into isError results', async () => {
    fake.fail(new AppError('not_found', 'no memory m000000000000'));
    const r = await call('memory_forget', { id: 'm000000000000' });
    expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no memory m000000000000' }] });
    const big = await call('memory_remember', { content: 'x'.repeat(4001) });
    expect(big.isError).toBe(true);
    expect(text(big)).toContain('at most 4,000 characters');
  });
});

describe('MCP memory tools against a real daemon (stdio)', () => {
  let daemon: TestDaemon;
  let mcp: McpSession;
  const project = '/tmp/ns-mcp-project-that-is-not-a-dir';

  beforeAll(async () => {
    daemon = new TestDaemon();
    await daemon.start();
    mcp = await startMcp(daemon.env, daemon.home);
  });
  afterAll(async () => {
    await mcp?.close();
    await daemon?.cleanup();
  });

  it("resolves a relative project against the server cwd, never the daemon's", async () => {
    const m = structured<{ project: string }>(await mcp.call('memory_remember', { content: 'The sub project builds with make.', project: 'sub' }));
    expect(m.project).toBe(join(daemon.home, 'sub'));
    const r = structured<{ project: string }>(await mcp.call('memory_recall', { project: 'sub' }));
    expect(r.project).toBe(join(daemon.home, 'sub'));
  });

  it('remembers, recalls, forgets, and searches ingested sessions', async () => {
    const m = structured<{ id: string }>(
      await mcp.call('memory_remember', { content: 'Deploys go through the staging cluster first', project, type: 'procedure', stable: true }),
    );
    expect(m.id).toMatch(/^m[0-9a-f]{12}$/);
    const recalled = await mcp.call('memory_recall', { project, query: 'staging deploys' });
    expect(structured<{ items: { id: string }[] }>(recalled).items.map((i) => i.id)).toContain(m.id);
    expect(text(recalled)).toContain('Deploys go through the staging cluster first');

    const forgotten = structured<{ archived_at?: string }>(await mcp.call('memory_forget', { id: m.id }));
    expect(forgotten.archived_at).toBeTruthy();
    const after = structured<{ items: { id: string }[] }>(await mcp.call('memory_recall', { project, query: 'staging deploys' }));
    expect(after.items.map((i) => i.id)).not.toContain(m.id);
    const again = await mcp.call('memory_forget', { id: 'm000000000000' });
    expect(again.isError).toBe(true);

    await daemon.client.ingest({ path: resolve(import.meta.dirname, '../fakes/transcripts/claude-code.jsonl') });
    const hits = structured<{ hits: { text: string; session_id: string }[] }>(await mcp.call('session_search', { query: 'invoice rounding' }));
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(hits.hits.some((h) => /invoice rounding/i.test(h.text))).toBe(true);
  });
});
