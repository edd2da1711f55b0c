import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCheckpoint, checkpointPaths, loadCheckpoint, saveCheckpoint } from '../../../src/agent/context/checkpoint.js';
import { parseSummary } from '../../../src/agent/context/compaction-summary.js';
import { tempDir } from './helpers.js';

const summary = (() => {
  const r = parseSummary(
    '## Goal\nG\n## Constraints\n- C\n## Done\n- D\n## Current\nNow\n## Remaining\n- R\n## Decisions\n- Dec\n## Errors\n- Err: x\n## Files\n- a.ts\n## Next step\nN',
  );
  if (!r.ok) throw new Error('bad fixture');
  return r.value;
})();

const state = (version: number) => ({
  version,
  savedAt: '2026-01-01T00:00:00.000Z',
  taskId: 'task-1',
  task: 'The task, verbatim.',
  summary,
  notes: { progress: ['p'], decisions: ['note decision'], open_issues: ['Err: x'] },
  compactions: 2,
  keptFrom: 10,
  messageCount: 14,
});

describe('checkpoints', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((rm) => rm()));

  it('holds goal, constraints, progress, decisions, open issues and the summary', () => {
    const c = buildCheckpoint(state(1));
    expect(c).toMatchObject({
      goal: 'The task, verbatim.',
      constraints: ['C'],
      progress: { done: ['D'], current: 'Now', remaining: ['R'] },
      decisions: ['Dec', 'note decision'],
      openIssues: ['Err: x'], // summary and notes merged without duplicates
      files: ['a.ts'],
      nextStep: 'N',
      keptFrom: 10,
    });
    expect(c.summary).toContain('## Goal');
  });

  it('saves JSON and a readable Markdown copy, and loads it back', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    expect((await loadCheckpoint(t.dir)).ok).toBe(true);
    const saved = await saveCheckpoint(t.dir, buildCheckpoint(state(1)));
    expect(saved.ok).toBe(true);
    const md = readFileSync(checkpointPaths(t.dir).md, 'utf8');
    expect(md).toContain('# Checkpoint v1 — task task-1');
    expect(md).toContain('## Goal\nThe task, verbatim.');
    expect(md).toContain('- note decision');
    const loaded = await loadCheckpoint(t.dir);
    expect(loaded.ok && loaded.value?.version).toBe(1);
  });

  it('versions only go up: an older or equal version is refused', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    expect((await saveCheckpoint(t.dir, buildCheckpoint(state(3)))).ok).toBe(true);
    const stale = await saveCheckpoint(t.dir, buildCheckpoint(state(2)));
    expect(!stale.ok && stale.error.code).toBe('checkpoint_stale');
    expect((await saveCheckpoint(t.dir, buildCheckpoint(state(4)))).ok).toBe(true);
  });

  it('a corrupt file is an error value', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    await saveCheckpoint(t.dir, buildCheckpoint(state(1)));
    writeFileSync(checkpointPaths(t.dir).json, '{"format": "something else"}');
    const r = await loadCheckpoint(t.dir);
    expect(!r.ok && r.error.code).toBe('checkpoint_invalid');
  });
});
