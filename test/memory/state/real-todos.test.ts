/**
 * Every task list of the real sessions in ../shared/benchmarks (read at test time, never copied
 * into the repository): whatever the session did after it, an item its latest list marks completed
 * is never shown as open, alone or across a person's sessions in their order.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptySessionState, type ProjectState, resolveState, type SessionState, StateBuilder } from '../../../src/memory/state/index.js';
import { parseTranscript } from '../../../src/memory/transcripts/index.js';

const SHARED = resolve(import.meta.dirname, '../../../../shared/benchmarks');
const SETS = [join(SHARED, 'real-sessions/files'), join(SHARED, 'longitudinal/athena/files')];
const present = SETS.filter((d) => existsSync(d));

function jsonl(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? jsonl(p) : name.endsWith('.jsonl') ? [p] : [];
    });
}

const key = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 150);

/** The session's record, and the latest status each task had in it. */
async function sessionOf(file: string): Promise<{ state: SessionState; latest: Map<string, string>; lists: number }> {
  const state = emptySessionState(file, file);
  const builder = new StateBuilder(state);
  const latest = new Map<string, string>();
  let lists = 0;
  const parse = await parseTranscript(file, {});
  for await (const m of parse.messages) {
    builder.add(m);
    if (m.todos !== undefined && m.sidechain !== true) {
      lists++;
      for (const t of m.todos) latest.set(key(t.content), t.status);
    }
  }
  return { state, latest, lists };
}

function openTodos(state: ProjectState): string[] {
  return resolveState(state, () => 0)
    .filter((l) => l.kind === 'open' && l.source === 'todo')
    .map((l) => key(l.text));
}

describe.skipIf(present.length === 0)('real task lists', () => {
  if (present.length < SETS.length) console.warn(`skipped (absent): ${SETS.filter((d) => !present.includes(d)).join(', ')}`);

  it('never shows a completed item as open', async () => {
    let lists = 0;
    for (const dir of present) {
      const sessions = [];
      for (const file of jsonl(dir)) sessions.push(await sessionOf(file));
      lists += sessions.reduce((n, s) => n + s.lists, 0);
      // Each session alone.
      for (const s of sessions) {
        const open = openTodos({ version: 1, project: dir, sessions: [s.state], archive: [] });
        for (const t of open) expect(s.latest.get(t), `${s.state.key}: ${t}`).not.toBe('completed');
      }
      // The sessions in their order: the latest word on an item is its status.
      const latest = new Map<string, string>();
      for (const s of sessions) for (const [k, v] of s.latest) latest.set(k, v);
      const open = openTodos({ version: 1, project: dir, sessions: sessions.map((s) => s.state), archive: [] });
      for (const t of open) expect(latest.get(t), `${dir}: ${t}`).not.toBe('completed');
    }
    expect(lists).toBeGreaterThan(0);
  }, 120_000);
});

if (present.length === 0) {
  describe('real task lists', () => {
    it.skip(`skipped: no benchmark sessions at ${SHARED} (they are read at test time, never copied here)`, () => {});
  });
}
