import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecallItem } from '../../src/api/memory.js';
import { PromptRecall, type PromptRecallDeps } from '../../src/memory/recall/prompt-recall.js';
import { tempDirsPerTest } from '../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-prompt-');
const log = pino({ level: 'silent' });

const item = (id: string, text: string): RecallItem => ({ kind: 'memory', id, text, type: 'fact', scope: 'project', score: 5, tokens: 10, sources: [] });
/** What recall answers for any query, narrowed as the caller asks: one memory about the staging database. */
const recall: PromptRecallDeps['recall'] = (_req, within) => ({
  project: null,
  query: 'q',
  budget: 2000,
  tokens: 50,
  considered: 1,
  items: [item('m1', 'The staging database runs on port 5433.')].filter(within.keep),
});
const deps: PromptRecallDeps = { recall, said: () => undefined };
/** A prompt whose answer reached the session: what it got is marked as given. */
const ask = (p: PromptRecall, sessionId: string) => {
  const r = p.forPrompt({ prompt: 'open the staging database', sessionId, maxChars: 2000 });
  p.given(
    sessionId,
    r.items.map((i) => i.id),
  );
  return r;
};

describe('PromptRecall: what each session was given', () => {
  it('is bounded: past 500 sessions the least recently prompted is forgotten, and the file holds 500', async () => {
    const file = join(tmp(), 'prompt-injections.json');
    const p = PromptRecall.open(file, deps, log);
    for (let i = 0; i < 501; i++) expect(ask(p, `s${i}`).items.map((x) => x.id)).toEqual(['m1']);
    await p.flush();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { sessions: Record<string, unknown> };
    expect(Object.keys(saved.sessions)).toHaveLength(500);
    expect(saved.sessions.s0).toBeUndefined();
    // s1 was given m1 and remembers it, from the file too; s0 was forgotten and is given it again.
    const again = PromptRecall.open(file, deps, log);
    expect(ask(again, 's1')).toEqual({ items: [], repeated: 1 });
    expect(ask(again, 's0').items.map((x) => x.id)).toEqual(['m1']);
  });

  it('starts afresh from a file it cannot read; without a session id every prompt gets its matches', () => {
    const file = join(tmp(), 'prompt-injections.json');
    writeFileSync(file, '{ not json');
    const p = PromptRecall.open(file, deps, log);
    // Kept, not overwritten: moved aside as every unreadable state file is.
    expect(readdirSync(dirname(file)).filter((f) => /^prompt-injections\.json\.corrupt-\d{4}-.*Z$/.test(f))).toHaveLength(1);
    expect(ask(p, 'a').items).toHaveLength(1);
    expect(ask(p, 'a').items).toHaveLength(0);
    // Choosing alone marks nothing: only what reached the session is withheld.
    expect(p.forPrompt({ prompt: 'open the staging database', sessionId: 'b', maxChars: 2000 }).items).toHaveLength(1);
    expect(ask(p, 'b').items).toHaveLength(1);
    // Without a session id nothing can be remembered: every prompt gets its matches.
    expect(p.forPrompt({ prompt: 'open the staging database', maxChars: 2000 }).items).toHaveLength(1);
    expect(p.forPrompt({ prompt: 'open the staging database', maxChars: 2000 }).items).toHaveLength(1);
  });
});
