import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, RecallResponse, SessionRecord, SessionShowResponse } from '../../src/api/memory.js';
import { daemonsPerTest, type TestDaemon, tempDirsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-sessions-');
const fixture = (name: string) => join(import.meta.dirname, '../fakes/transcripts', name);
const PARENT = '7d1c2b3a-0000-4000-8000-00000000c0de';
const LEDGER = '/home/dana/src/ledger';

async function ingest(d: TestDaemon, file: string, ...args: string[]): Promise<IngestSummary> {
  const r = await d.cli(['ingest', file, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as IngestSummary;
}

/** A Claude Code session that edits a file and runs the tests (so its digest has something to say). */
function workSession(file: string, n: number, cwd: string, day: string): void {
  const line = (type: string, content: unknown, i: number) =>
    JSON.stringify({ type, sessionId: `work-${n}`, cwd, uuid: `w${n}-${i}`, timestamp: `${day}T10:0${i}:00.000Z`, message: { role: type, content } });
  writeFileSync(
    file,
    [
      line('user', `Please rework module ${n}: the secret word is zanzibar${n}.`, 0),
      line('assistant', [{ type: 'tool_use', id: `e${n}`, name: 'Edit', input: { file_path: `${cwd}/src/mod${n}.ts`, old_string: 'a', new_string: 'b' } }], 1),
      line('user', [{ type: 'tool_result', tool_use_id: `e${n}`, content: 'updated' }], 2),
      line('assistant', [{ type: 'tool_use', id: `t${n}`, name: 'Bash', input: { command: 'npm test' } }], 3),
      line('user', [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'all passed' }], 4),
    ].join('\n') + '\n',
  );
}

describe('sessions and their digests', () => {
  it('files subagent and compaction sidechains under their parent session and project', async () => {
    const d = newDaemon();
    await d.start();
    const parent = await ingest(d, fixture('claude-code-origins.jsonl'));
    expect(parent).toMatchObject({ sessionId: PARENT, project: LEDGER });
    // Its own cwd is /home/dana/src/ledger/web: the parent's project wins.
    const sub = await ingest(d, fixture('claude-code-subagent.jsonl'));
    expect(sub).toMatchObject({ sessionId: PARENT, project: LEDGER });
    await ingest(d, fixture('claude-code-compact.jsonl'));
    const sessions = JSON.parse((await d.cli(['sessions', '--json'])).stdout) as SessionRecord[];
    expect(sessions.map((s) => [s.sessionId, s.agentId ?? '-']).sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [PARENT, '-'],
      [PARENT, 'a5e6f7a'],
      [PARENT, 'acompact-9f8e7d'],
    ]);
    const show = JSON.parse((await d.cli(['sessions', 'show', PARENT.slice(0, 8), '--json'])).stdout) as SessionShowResponse;
    expect(show.session.agentId).toBeUndefined();
    expect(show.sidechains.map((s) => s.session.agentId).sort()).toEqual(['a5e6f7a', 'acompact-9f8e7d']);
    expect(show.sidechains.find((s) => s.session.agentId === 'a5e6f7a')?.digest?.files.map((f) => f.path)).toEqual(['web/money.ts']);
    const missing = await d.cli(['sessions', 'show', 'no-such-session']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no session no-such-session');
  });

  it('digests what was asked, changed, run, broken and fixed, and left open, with provenance', async () => {
    const d = newDaemon();
    await d.start();
    await ingest(d, fixture('claude-code-origins.jsonl'));
    const { digest } = JSON.parse((await d.cli(['sessions', 'show', PARENT, '--json'])).stdout) as SessionShowResponse;
    expect(digest).not.toBeNull();
    if (!digest) return;
    expect(digest.asked.map((a) => a.text)).toEqual([
      'The ledger totals drift after imports. Use integer cents everywhere.',
      'also keep the CSV importer streaming',
      'check the fixtures too',
    ]);
    expect(digest.asked[0]?.messageId).toBe('e0000002-0000-4000-8000-000000000000');
    // The rejected edit of src/import.ts changed nothing.
    expect(digest.files.map((f) => f.path)).toEqual(['src/totals.ts', 'CLAUDE.md']);
    expect(digest.commands.find((c) => c.kind === 'test')).toMatchObject({ command: 'npm test', runs: 2, failures: 1, ok: true });
    expect(digest.errors).toEqual([expect.objectContaining({ command: 'npm test', fixed: true, text: 'Error: expected 1001 received 1000.9999' })]);
    expect(digest.commits).toEqual([expect.objectContaining({ message: 'Totals in integer cents', messageId: 'e0000024-0000-4000-8000-000000000000' })]);
    expect(digest.outcome).toEqual(['tests passing', 'committed', 'interrupted']);
    expect(digest.open.map((o) => [o.source, o.text])).toEqual([
      ['pending-tasks', 'Bump the version to 2.0'],
      ['pending-tasks', 'Update the changelog'],
      ['question', 'Should I also bump the version now?'],
    ]);
    const text = await d.cli(['sessions', 'show', PARENT]);
    expect(text.stdout).toContain('files changed:');
    expect(text.stdout).toMatch(/npm test: 2 runs, 1 failed, last passed/);
    expect(text.stdout).toContain('unanswered: Should I also bump the version now?');
  });

  it('recall shows the recent sessions here without the person’s words or error text', async () => {
    const d = newDaemon();
    await d.start();
    await ingest(d, fixture('claude-code-origins.jsonl'));
    await ingest(d, fixture('claude-code-subagent.jsonl'));
    const r = JSON.parse((await d.cli(['recall', '--project', LEDGER, '--json'])).stdout) as RecallResponse;
    const digests = r.items.filter((i) => i.kind === 'digest');
    expect(digests).toHaveLength(1);
    const [line] = digests;
    expect(line?.text).toBe('2026-03-02: changed totals.ts, CLAUDE.md, money.ts; ran npm test passed (2 runs, 1 failed); 1 commit');
    expect(line?.sources[0]?.sessionId).toBe(PARENT);
    expect(line?.sources[0]?.messageIds.length).toBeGreaterThan(0);
    const md = await d.cli(['recall', '--project', LEDGER, '--format', 'markdown']);
    expect(md.stdout).toContain('## Recent sessions here\n- 2026-03-02: changed totals.ts');
    expect(md.stdout).not.toContain('expected 1001');
    const hook = await d.cli(['recall', '--project', LEDGER, '--format', 'claude-hook']);
    expect(hook.stdout).toContain('Recent sessions here');
    // A quarter of 60 tokens holds no digest.
    const small = JSON.parse((await d.cli(['recall', '--project', LEDGER, '--budget', '60', '--json'])).stdout) as RecallResponse;
    expect(small.items.some((i) => i.kind === 'digest')).toBe(false);
  });

  it('recalls at most three digests, the most recent first', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    for (const n of [1, 2, 3, 4]) {
      const file = join(dir, `w${n}.jsonl`);
      workSession(file, n, dir, `2026-05-0${n}`);
      await ingest(d, file);
    }
    const r = JSON.parse((await d.cli(['recall', '--project', dir, '--json'])).stdout) as RecallResponse;
    expect(r.items.filter((i) => i.kind === 'digest').map((i) => i.text)).toEqual([
      '2026-05-04: changed mod4.ts; ran npm test passed',
      '2026-05-03: changed mod3.ts; ran npm test passed',
      '2026-05-02: changed mod2.ts; ran npm test passed',
    ]);
  });

  it('keeps a Windows cwd as the project, as written', async () => {
    const d = newDaemon();
    await d.start();
    const s = await ingest(d, fixture('codex-origins.jsonl'));
    expect(s.project).toBe('C:\\Users\\kim\\src\\shop');
    const r = JSON.parse((await d.cli(['recall', '--project', 'C:\\Users\\kim\\src\\shop', '--json'])).stdout) as RecallResponse;
    expect(r.project).toBe('C:\\Users\\kim\\src\\shop');
    expect(r.items.find((i) => i.kind === 'digest')?.text).toBe('2026-04-01: changed tax.ts, AGENTS.md; ran pnpm test passed (2 runs, 1 failed)');
  });

  it('refuses a --format that reads nothing, names the detected one, and marks nothing ingested', async () => {
    const d = newDaemon();
    await d.start();
    const r = await d.cli(['ingest', fixture('codex-origins.jsonl'), '--format', 'claude-code']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--format claude-code read no messages');
    expect(r.stderr).toContain('it looks like codex');
    expect(JSON.parse((await d.cli(['sessions', '--json'])).stdout)).toEqual([]);
    const dir = tmp();
    copyFileSync(fixture('codex-origins.jsonl'), join(dir, 'x.jsonl'));
    await ingest(d, join(dir, 'x.jsonl'), '--format', 'codex');
  });
});
