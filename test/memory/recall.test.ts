import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory, RecallResponse } from '../../src/api/memory.js';
import { PRUNE_FACTOR } from '../../src/memory/store/model.js';
import { rankFloor } from '../../src/memory/rank/score.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-recall-');

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe('remember, memories and recall', () => {
  it('remembers, lists, shows, forgets, restores and pins', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const add = await d.cli(['remember', '--project', project, '--type', 'fact', 'The', 'API', 'listens', 'on', 'port', '8080']);
    expect(add.code, add.stderr).toBe(0);
    const id = add.stdout.trim();
    expect(id).toMatch(/^m[0-9a-f]{12}$/);
    const user = await d.cli(['remember', '--user', '--stable', '--type', 'preference', 'Keep answers short.']);
    const list = JSON.parse((await d.cli(['memories', 'list', '--project', project, '--json'])).stdout) as Memory[];
    expect(list.map((m) => m.id).sort()).toEqual([id, user.stdout.trim()].sort());
    expect((await d.cli(['memories', 'show', id])).stdout).toContain('port 8080');
    expect((await d.cli(['memories', 'forget', id])).code).toBe(0);
    expect((await d.cli(['recall', '--project', project])).stdout).not.toContain('8080');
    expect((await d.cli(['memories', 'list', '--project', project, '--archived'])).stdout).toContain(id);
    await d.cli(['memories', 'restore', id]);
    expect((await d.cli(['recall', '--project', project])).stdout).toContain('8080');
    const pinned = JSON.parse((await d.cli(['memories', 'pin', id, '--json'])).stdout) as Memory;
    expect(pinned).toMatchObject({ pinned: true, stable: true });
    // Another project does not see it; the user-scope memory shows everywhere.
    const other = await d.cli(['recall', '--project', tmp()]);
    expect(other.stdout).not.toContain('8080');
    expect(other.stdout).toContain('Keep answers short');
  });

  it('refuses bad input with a clear error and keeps serving', async () => {
    const d = newDaemon();
    await d.start();
    expect((await d.cli(['memories', 'show', 'nope'])).stderr).toMatch(/memory id/);
    expect((await d.cli(['memories', 'show', 'm000000000000'])).stderr).toContain('no memory');
    expect((await d.cli(['remember', '--type', 'bogus', 'x'])).code).toBe(2);
    expect((await d.cli(['remember', '--user', `password=${'Zq8!vLr2#pW'}`])).stderr).toContain('secret');
    expect((await d.cli(['recall', '--format', 'yaml'])).code).toBe(2);
    expect((await d.client.status()).pid).toBeGreaterThan(0);
  });

  it('puts standing instructions first, drops decayed and superseded memories, fits the budget and never resets decay', async () => {
    const d = newDaemon();
    await d.start();
    const project = tmp();
    const lines: Record<string, unknown>[] = [
      { content: 'Always run the tests before committing.', scope: 'user', type: 'instruction', stable: true, importance: 0.9 },
      // Unseen for 120 days in a project with no sessions since: 0.5^4 of its weight is left, under PRUNE_FACTOR.
      { content: 'The staging server is currently down.', project, scope: 'project', type: 'fact', stable: false, importance: 0.9, lastSeenAt: daysAgo(120) },
      { content: 'Deploys go to fly.io.', project, scope: 'project', type: 'fact', stable: false, importance: 0.6, lastSeenAt: daysAgo(10) },
      { content: 'Old convention: tabs.', project, scope: 'project', type: 'fact', stable: true, importance: 0.7, supersededBy: 'm0123456789ab' },
    ];
    for (let i = 0; i < 200; i++)
      lines.push({
        content: `Filler fact number ${i} about module ${i} of the billing code.`,
        project,
        scope: 'project',
        type: 'note',
        stable: true,
        importance: 0.4,
      });
    const file = join(project, 'in.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const imp = await d.cli(['memories', 'import', file, '--json']);
    expect(JSON.parse(imp.stdout)).toEqual({ added: 204, duplicates: 0 });

    expect(0.5 ** (120 / 30)).toBeLessThan(PRUNE_FACTOR);
    const r = JSON.parse((await d.cli(['recall', '--project', project, '--budget', '300', '--json'])).stdout) as RecallResponse;
    // Sections: the standing rules, then the project's state (best first within it).
    expect(r.items[0]?.text).toBe('Always run the tests before committing.');
    const standing = r.items.map((i) => i.type === 'instruction' || i.type === 'preference');
    expect(standing.indexOf(false)).toBeGreaterThan(0);
    expect(standing.lastIndexOf(true)).toBeLessThan(standing.indexOf(false));
    const state = r.items.filter((i) => i.kind === 'memory' && !(i.type === 'instruction' || i.type === 'preference')).map((i) => i.score);
    expect(state).toEqual([...state].sort((a, b) => b - a));
    // The budget is filled, never overrun, and nothing under the ranker's floor is offered.
    expect(r.tokens).toBeLessThanOrEqual(300);
    expect(r.items.length).toBeGreaterThan(5);
    expect(r.considered).toBeGreaterThan(r.items.length);
    for (const i of r.items) expect(i.score).toBeGreaterThanOrEqual(rankFloor());
    const texts = r.items.map((i) => i.text);
    expect(texts).not.toContain('The staging server is currently down.'); // decayed past PRUNE_FACTOR, however important
    expect(texts).not.toContain('Old convention: tabs.'); // superseded
    expect(texts.indexOf('Deploys go to fly.io.')).toBe(1); // 0.6 × 0.5^(10/30) ≈ 0.48: first of the project's state

    const before = JSON.parse((await d.cli(['memories', 'list', '--project', project, '--json'])).stdout) as Memory[];
    await d.cli(['recall', '--project', project]);
    const after = JSON.parse((await d.cli(['memories', 'list', '--project', project, '--json'])).stdout) as Memory[];
    expect(after.map((m) => m.lastSeenAt)).toEqual(before.map((m) => m.lastSeenAt));

    const q = JSON.parse((await d.cli(['recall', '--project', project, '--query', 'module 17', '--json'])).stdout) as RecallResponse;
    expect(q.items[0]?.text).toContain('number 17');

    const md = (await d.cli(['recall', '--project', project, '--format', 'markdown'])).stdout;
    expect(md.indexOf('## Standing rules')).toBeGreaterThan(0);
    expect(md.indexOf(`## Facts about ${project}`)).toBeGreaterThan(md.indexOf('## Standing rules'));
    expect(md).not.toContain('currently down');
    const big = await d.cli(['recall', '--project', project, '--budget', '100000', '--format', 'claude-hook']);
    const hook = JSON.parse(big.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(hook.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(hook.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(10_000);
  });

  it('export then import into a fresh home round-trips every memory', async () => {
    const a = newDaemon();
    await a.start();
    const project = tmp();
    await a.cli(['remember', '--project', project, '--stable', '--type', 'decision', 'We chose Postgres 16 over MySQL.']);
    await a.cli(['remember', '--user', 'I like concise commit messages.']);
    const forgotten = (await a.cli(['remember', '--project', project, 'Temporary note.'])).stdout.trim();
    await a.cli(['memories', 'forget', forgotten]);
    const file = join(project, 'export.jsonl');
    expect((await a.cli(['memories', 'export', file])).code).toBe(0);
    const exported = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Memory);
    expect(exported).toHaveLength(3);

    const b = newDaemon();
    await b.start();
    expect(JSON.parse((await b.cli(['memories', 'import', file, '--json'])).stdout)).toEqual({ added: 3, duplicates: 0 });
    const again = JSON.parse((await b.cli(['memories', 'export'])).stdout.split('\n')[0] ?? '{}') as Memory;
    expect(exported.map((m) => ({ ...m, origin: 'x' }))).toContainEqual({ ...again, origin: 'x' });
    expect(JSON.parse((await b.cli(['memories', 'import', file, '--json'])).stdout)).toEqual({ added: 0, duplicates: 3 });
    const bad = join(project, 'bad.jsonl');
    writeFileSync(bad, '{"content":"ok"}\n{"nope":1}\n');
    const refused = await b.cli(['memories', 'import', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('bad.jsonl:2');
  });
});
