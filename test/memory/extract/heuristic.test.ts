import { describe, expect, it } from 'vitest';
import { extractHeuristic } from '../../../src/memory/extract/heuristic.js';
import type { Candidate, ExtractMessage } from '../../../src/memory/extract/types.js';
// Only the held-out half of the corpus: the tuning half is for changing the rules (see its header).
import { NEGATIVE, POSITIVE } from './heuristic-corpus-held-out.js';

let seq = 0;
function msg(role: ExtractMessage['role'], text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage {
  seq += 1;
  return {
    id: `m${seq}`,
    role,
    kind: 'text',
    origin: role === 'user' ? 'typed' : 'assistant',
    text,
    timestamp: `2025-03-01T10:00:${String(seq % 60).padStart(2, '0')}Z`,
    ...extra,
  };
}
const user = (text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage => msg('user', text, extra);
const assistant = (text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage => msg('assistant', text, extra);

function run(messages: ExtractMessage[], maxMemories = 20): Candidate[] {
  const result = extractHeuristic({ sessionId: 's1', project: '/repo', messages, maxMemories });
  expect(result.extractor).toBe('heuristic');
  return result.proposals;
}

/** Types that say the same thing from two angles ("we use pnpm, not npm" is a fact and a choice). */
const SAME_KIND: Record<string, string> = {
  instruction: 'rule',
  preference: 'rule',
  procedure: 'rule',
  fact: 'state',
  decision: 'state',
  learning: 'learning',
};

describe('extractHeuristic: labelled corpus (held-out half)', () => {
  it('has a corpus big enough to mean something', () => {
    expect(POSITIVE.length).toBeGreaterThanOrEqual(20);
    expect(NEGATIVE.length).toBeGreaterThanOrEqual(30);
  });

  it('finds at least 85 % of what should last, each once, of the right kind and scope, with provenance', () => {
    const misses: string[] = [];
    for (const c of POSITIVE) {
      const m = user(c.text);
      const out = run([m]);
      // A temporary statement may be dropped; kept, it must not pass for a standing one.
      if (c.stable === false) {
        for (const got of out) expect(got.stable, c.text).toBe(false);
        continue;
      }
      if (out.length !== 1) {
        misses.push(c.text);
        continue;
      }
      const got = out[0]!;
      expect(SAME_KIND[got.type], c.text).toBe(SAME_KIND[c.type]);
      expect(got.scope, c.text).toBe(c.scope);
      expect(got.messageIds).toEqual([m.id]);
      expect(got.at).toBe(m.timestamp);
      if (c.content !== undefined) expect(got.content).toBe(c.content);
      expect(got.content).toMatch(/^[A-Z`].*\.$/s);
      expect(got.content.length).toBeLessThanOrEqual(200);
      expect(got.importance).toBeGreaterThanOrEqual(0.45);
    }
    const standing = POSITIVE.filter((c) => c.stable !== false).length;
    expect((standing - misses.length) / standing, `missed: ${misses.join(' | ')}`).toBeGreaterThanOrEqual(0.85);
  });

  it.each(NEGATIVE)('extracts nothing from %j', (text) => {
    expect(run([user(text)])).toEqual([]);
  });
});

describe('extractHeuristic: what it reads', () => {
  it('never takes tool output, tool calls, injected context, a parent agent or system text for the person', () => {
    const said = 'Always use pnpm in this repo.';
    const out = run([
      user(said, { kind: 'tool_result', toolName: 'Bash' }),
      assistant(`Bash(echo "${said}")`, { kind: 'tool_use', toolName: 'Bash' }),
      user(said, { meta: true }),
      user(said, { sidechain: true }),
      user(said, { origin: 'agent' }),
      user(said, { origin: 'command' }),
      msg('system', said),
      assistant('The root cause was a stale lockfile; fixed by deleting pnpm-lock.yaml.', { kind: 'thinking' }),
    ]);
    expect(out).toEqual([]);
    // The same words typed by the person are a memory: what kept them out above is where they were.
    expect(run([user(said)]).map((c) => c.content)).toEqual([said]);
  });

  it('reads a compaction summary by its sections', () => {
    const summary = [
      'Summary:',
      '1. Primary Request and Intent:',
      '   The user asked for the export feature.',
      '2. Key Technical Concepts:',
      '   - Rails 8 with SQLite and Solid Queue',
      '3. Problem Solving:',
      '   - Established that the seeds file runs as a script, so it must not use a top-level return.',
      '4. Pending Tasks:',
      '   - Write the CSV export tests.',
    ].join('\n');
    const out = run([user(summary, { kind: 'summary', compactSummary: true, origin: 'summary' })]);
    expect(out.map((c) => c.type).sort()).toEqual(['fact', 'learning']);
    expect(out.some((c) => /csv export tests/i.test(c.content))).toBe(false);
  });

  it('takes only verified conclusions from the assistant, not its advice or its guesses', () => {
    expect(run([assistant('You should always run the linter. From now on I will use tabs. We use pnpm here.')])).toEqual([]);
    const guess = assistant('The root cause is probably the cache; maybe the lockfile.');
    const found = assistant('The root cause was a stale lockfile. Fixed it by deleting pnpm-lock.yaml.');
    const check = assistant('Bash(pnpm test)', { kind: 'tool_use', toolName: 'Bash' });
    const passed = user('Tests: 12 passed', { kind: 'tool_result', toolName: 'Bash' });
    expect(run([guess, check, passed]).map((c) => c.type)).toEqual([]);
    expect(run([found]).map((c) => c.type)).toEqual([]); // nothing verified it
    expect(run([found, check, passed]).map((c) => [c.type, c.content])).toEqual([
      ['learning', 'The root cause was a stale lockfile; fixed it by deleting pnpm-lock.yaml.'],
    ]);
    // From the person, the same sentences are a standing instruction and a project fact.
    expect(run([user('Always run the linter. We use pnpm here.')]).map((c) => SAME_KIND[c.type])).toEqual(['rule', 'state']);
  });

  it('keeps the prose of a message and drops the log pasted under it', () => {
    const text = [
      'From now on, always run `pnpm typecheck` before saying you are done.',
      '',
      'It fails like this:',
      '$ pnpm typecheck',
      'src/a.ts(3,1): error TS2304: Cannot find name "x".',
      'src/b.ts(9,5): error TS2304: Cannot find name "y".',
      'Found 2 errors in 2 files.',
    ].join('\n');
    const out = run([user(text)]);
    expect(out.map((c) => c.content)).toEqual(['From now on, always run `pnpm typecheck` before saying you are done.']);
  });

  it('reads the bullets of a list of conventions as separate statements, with their intro', () => {
    const out = run([user('Conventions for this repo:\n- always use pnpm\n- never commit .env files\n- tests live in test/ and mirror src/')]);
    expect(out.map((c) => c.content)).toEqual([
      'Conventions for this repo: always use pnpm.',
      'Conventions for this repo: never commit .env files.',
      'Conventions for this repo: tests live in test/ and mirror src/.',
    ]);
  });

  it('splits a message into sentences and keeps only the memorable ones', () => {
    const out = run([user('Thanks! That fixed it. From now on, use `rg` instead of grep. Also the API runs on port 8080 btw. Can you rerun the build?')]);
    expect(out.map((c) => c.content)).toEqual(['From now on, use `rg` instead of grep.', 'The API runs on port 8080.']);
    expect(out[0]!.replaces).toEqual(['grep']);
  });

  it('scopes a task instruction to its project and a statement about the person to them', () => {
    const out = run([user('Prefer ruby for the scripts in this repo.'), user('I prefer small commits.'), user('Keep answers short.')]);
    expect(out.map((c) => [c.content, c.scope])).toEqual([
      ['Prefer ruby for the scripts in this repo.', 'project'],
      ['I prefer small commits.', 'user'],
      ['Keep answers short.', 'user'],
    ]);
  });
});

describe('extractHeuristic: replaces', () => {
  it.each([
    ['We switched from npm to pnpm.', ['npm']],
    ['Use vitest instead of jest in this repo.', ['jest']],
    ['We no longer use jest.', ['jest']],
    ['We moved from Heroku to fly.io.', ['Heroku']],
    ['Moment.js is replaced by date-fns.', ['Moment.js']],
    ['Going with Postgres instead of MySQL.', ['MySQL']],
    ['We upgraded from Node 18 to Node 20.', ['Node 18']],
  ])('%s → %j', (text, old) => {
    const out = run([user(text)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.replaces).toEqual(old);
  });

  it('sets nothing for a plain preference', () => {
    const out = run([user('I prefer tabs over spaces.')]);
    expect(out).toHaveLength(1);
    expect(out[0]!.replaces).toBeUndefined();
  });
});

describe('extractHeuristic: time-bound statements', () => {
  it.each(['Right now we use the mock payment provider at localhost:4000.', 'Until Friday, use the staging API instead of prod.'])(
    '%s → kept as not stable, low importance, retiring nothing',
    (text) => {
      const out = run([user(text)]);
      expect(out).toHaveLength(1);
      expect(out[0]!.stable).toBe(false);
      expect(out[0]!.importance).toBeLessThanOrEqual(0.35);
      expect(out[0]!.replaces).toBeUndefined();
    },
  );

  it('keeps the same rule stable without the time words', () => {
    const out = run([user('Always run the e2e suite with `--workers 1`.')]);
    expect(out[0]).toMatchObject({ stable: true });
  });
});

describe('extractHeuristic: dedupe, cap, provenance', () => {
  it('merges repeats into one candidate with every source id and the last timestamp', () => {
    const a = user('Always use pnpm.', { timestamp: '2025-03-01T10:00:00Z' });
    const b = user('ok cool');
    const c = user('always use pnpm!!', { timestamp: '2025-03-01T11:30:00Z' });
    const d = user('Please, always use pnpm', { timestamp: '2025-03-01T12:00:00Z' });
    const out = run([a, b, c, d]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ content: 'Always use pnpm.', messageIds: [a.id, c.id, d.id], at: '2025-03-01T12:00:00Z' });
  });

  it('leaves `at` unset when the transcript has no timestamp', () => {
    const out = run([user('Always use pnpm.', { timestamp: undefined })]);
    expect(out).toHaveLength(1);
    expect(out[0]!.at).toBeUndefined();
  });

  it('caps at maxMemories, keeping the strongest, in the order they were said', () => {
    const facts = ['The API runs on port 8080.', 'We deploy to fly.io.'].map((t) => user(t));
    const rules = Array.from({ length: 10 }, (_, i) => user(`Always run \`make check${i}\` before pushing.`));
    const out = run([...facts, ...rules], 5);
    expect(out).toHaveLength(5);
    expect(out.every((c) => /^Always run/.test(c.content))).toBe(true);
    expect(run([...facts, ...rules], 0)).toEqual([]);
    const all = run([...facts, ...rules], 20);
    expect(all.map((c) => c.messageIds[0])).toEqual([...facts, ...rules].map((m) => m.id));
  });
});

describe('extractHeuristic: content', () => {
  it('strips fillers, capitalises and ends with one full stop', () => {
    const out = run([user('hey, btw from now on reply in english :) thanks')]);
    expect(out.map((c) => c.content)).toEqual(['From now on reply in english.']);
  });

  it('clips a long instruction to 200 characters at a clause boundary', () => {
    const text = `Always write commit messages in the imperative mood, ${'keep the subject line under fifty characters, '.repeat(5)}and explain why in the body.`;
    const out = run([user(text)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.content.length).toBeLessThanOrEqual(200);
    expect(out[0]!.content).toMatch(/^Always write commit messages in the imperative mood, keep the subject line under fifty characters,.*characters\.$/);
  });
});

describe('extractHeuristic: speed', () => {
  it('stays linear on hostile input: unclosed tags, huge lines, endless output', () => {
    const messages = [
      user(`${'<div> always use pnpm '.repeat(20_000)}`),
      user(`${'always use pnpm in this repo '.repeat(40_000)}`),
      user(`${'$ npm test\n'.repeat(50_000)}From now on, use pnpm.`),
      user(`<a>${'x'.repeat(200_000)}</a>\nFrom now on, always use pnpm.`),
    ];
    const start = performance.now();
    const out = run(messages);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(out.map((c) => c.content)).toContain('From now on, always use pnpm.');
  });

  it('extracts from 10,000 user messages in a few seconds', () => {
    // The language analysis costs about 0.05 ms a word; a long session of typed messages stays far
    // below the 10 s the whole real-session corpus may take to ingest.
    const pool = [...POSITIVE.map((p) => p.text), ...NEGATIVE];
    const messages = Array.from({ length: 10_000 }, (_, i) => user(`${pool[i % pool.length] ?? ''} (${i})`));
    let best = Infinity;
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      const out = extractHeuristic({ sessionId: 's', messages, maxMemories: 20 });
      best = Math.min(best, performance.now() - start);
      expect(out.candidates).toHaveLength(20);
    }
    expect(best).toBeLessThan(10_000);
  });
});
