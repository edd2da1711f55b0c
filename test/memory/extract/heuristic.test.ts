import { describe, expect, it } from 'vitest';
import { extractHeuristic } from '../../../src/memory/extract/heuristic.js';
import type { Candidate, ExtractMessage } from '../../../src/memory/extract/types.js';
// Only the held-out half of the corpus: the tuning half is for changing the rules (see its header).
import { NEGATIVE, POSITIVE } from './heuristic-corpus-held-out.js';

let seq = 0;
function msg(role: ExtractMessage['role'], text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage {
  seq += 1;
  return { id: `m${seq}`, role, kind: 'text', origin: role === 'user' ? 'typed' : 'assistant', text, timestamp: `2025-03-01T10:00:${String(seq % 60).padStart(2, '0')}Z`, ...extra };
}
const user = (text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage => msg('user', text, extra);
const assistant = (text: string, extra: Partial<ExtractMessage> = {}): ExtractMessage => msg('assistant', text, extra);

function run(messages: ExtractMessage[], maxMemories = 20): Candidate[] {
  const result = extractHeuristic({ sessionId: 's1', project: '/repo', messages, maxMemories });
  expect(result.extractor).toBe('heuristic');
  return result.candidates;
}

describe('extractHeuristic: labelled corpus (held-out half)', () => {
  it('has a corpus big enough to mean something', () => {
    expect(POSITIVE.length).toBeGreaterThanOrEqual(20);
    expect(NEGATIVE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(POSITIVE)('extracts "$text" as $type/$scope', (c) => {
    const m = user(c.text);
    const out = run([m]);
    expect(out).toHaveLength(1);
    const got = out[0]!;
    expect({ type: got.type, scope: got.scope, stable: got.stable }).toEqual({ type: c.type, scope: c.scope, stable: c.stable ?? true });
    expect(got.replaces).toEqual(c.replaces);
    expect(got.messageIds).toEqual([m.id]);
    expect(got.at).toBe(m.timestamp);
    if (c.content !== undefined) expect(got.content).toBe(c.content);
    expect(got.content).toMatch(/^[A-Z`].*\.$/s);
    expect(got.content.length).toBeLessThanOrEqual(200);
    if (got.stable === false) expect(got.importance).toBeLessThanOrEqual(0.35);
    else if (got.type === 'instruction' || got.type === 'preference') expect(got.importance).toBeGreaterThanOrEqual(0.8);
    else if (got.type === 'fact') expect(got.importance).toBeGreaterThanOrEqual(0.6);
    else if (got.type === 'decision') expect(got.importance).toBeGreaterThanOrEqual(0.65);
    else expect(got.importance).toBeGreaterThanOrEqual(0.55);
    // Only what the user asked to keep ("remember …") ranks a fact above 0.8.
    expect(got.importance).toBeLessThanOrEqual(got.type === 'instruction' || got.type === 'preference' || c.text.startsWith('remember') ? 0.9 : 0.8);
  });

  it.each(NEGATIVE)('extracts nothing from %j', (text) => {
    expect(run([user(text)])).toEqual([]);
  });
});

describe('extractHeuristic: what it reads', () => {
  it('never reads tool results, tool calls, injected context, summaries, subagents or system text', () => {
    const said = 'Always use pnpm in this repo.';
    const out = run([
      user(said, { kind: 'tool_result', toolName: 'Bash' }),
      assistant(`Bash(echo "${said}")`, { kind: 'tool_use', toolName: 'Bash' }),
      user(said, { meta: true }),
      user(said, { compactSummary: true, kind: 'summary' }),
      user(said, { compactSummary: true }),
      user(said, { sidechain: true }),
      msg('system', said),
      assistant('The root cause was a stale lockfile; fixed by deleting pnpm-lock.yaml.', { kind: 'thinking' }),
    ]);
    expect(out).toEqual([]);
    // The same words said by the user, and the same finding in the assistant's text, are memories:
    // what kept them out above is where they were, not what they said.
    expect(run([user(said)]).map((c) => c.content)).toEqual([said]);
    expect(run([assistant('The root cause was a stale lockfile; fixed by deleting pnpm-lock.yaml.')]).map((c) => c.type)).toEqual(['learning']);
  });

  it('takes only conclusions from the assistant, not its advice', () => {
    const out = run([assistant('You should always run the linter. From now on I will use tabs. We use pnpm here.')]);
    expect(out).toEqual([]);
    // From the user, the same sentences are a standing instruction and a project fact.
    expect(run([user('Always run the linter. We use pnpm here.')]).map((c) => c.type)).toEqual(['instruction', 'fact']);
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

  it('reads bullet lists as separate statements and a "to X:" list as one procedure', () => {
    const out = run([
      user('Some conventions for this repo:\n- always use pnpm\n- never commit .env files\n- tests live in test/ and mirror src/'),
      user('To release:\n1. bump the version in package.json\n2. run `pnpm build`\n3. run `npm publish --access public`'),
    ]);
    expect(out.map((c) => [c.type, c.content])).toEqual([
      ['instruction', 'Always use pnpm.'],
      ['instruction', 'Never commit .env files.'],
      ['fact', 'Tests live in test/ and mirror src/.'],
      ['procedure', 'To release: bump the version in package.json; run `pnpm build`; run `npm publish --access public`.'],
    ]);
  });

  it('splits a message into sentences and keeps only the memorable ones', () => {
    const out = run([user('Thanks! That fixed it. From now on, use `rg` instead of grep. Also the API runs on port 8080 btw. Can you rerun the build?')]);
    expect(out.map((c) => [c.type, c.content, c.replaces])).toEqual([
      ['instruction', 'From now on, use `rg` instead of grep.', ['grep']],
      ['fact', 'The API runs on port 8080.', undefined],
    ]);
  });
});

describe('extractHeuristic: learnings', () => {
  it('joins the assistant\'s root cause with the fix that follows it', () => {
    const m = assistant('I found it. The root cause was a stale cache key that ignored the locale. I fixed it by adding the locale to the key in cache.ts. Let me run the tests again.');
    const out = run([user('why are the French pages showing English?'), m]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      type: 'learning',
      scope: 'project',
      stable: true,
      content: 'The root cause was a stale cache key that ignored the locale; I fixed it by adding the locale to the key in cache.ts.',
      messageIds: [m.id],
      at: m.timestamp,
    });
    expect(out[0]!.importance).toBeCloseTo(0.6, 1);
    expect(out[0]!.content.length).toBeLessThanOrEqual(200);
  });

  it('reads "turns out", "the problem was" and markdown-labelled causes', () => {
    const out = run([
      assistant('Turns out the CI runner uses Node 18, which lacks `Array.prototype.findLast`.'),
      assistant('**Root cause:** the migration ran before the schema was created.\n\n**Fix:** reordered the migrations so `001_schema.sql` runs first.'),
      assistant('Maybe the issue is the timeout? Let me check.'),
      assistant('Done! All 42 tests pass now.'),
    ]);
    expect(out.map((c) => c.content)).toEqual([
      'Turns out the CI runner uses Node 18, which lacks `Array.prototype.findLast`.',
      'Root cause: the migration ran before the schema was created; fix: reordered the migrations so `001_schema.sql` runs first.',
    ]);
    expect(out.every((c) => c.type === 'learning' && c.scope === 'project')).toBe(true);
  });

  it('keeps a learning to one sentence of at most 200 characters', () => {
    const long = `The root cause was that the worker pool ${'kept retrying the same poisoned job '.repeat(4)}forever. Fixed by moving poisoned jobs to a dead-letter queue after three attempts.`;
    const out = run([assistant(long)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.content.length).toBeLessThanOrEqual(200);
    expect(out[0]!.content).toMatch(/^The root cause was that the worker pool kept retrying/);
    expect(out[0]!.content.endsWith('.')).toBe(true);
  });
});

describe('extractHeuristic: replaces', () => {
  it.each([
    ['We switched from npm to pnpm.', ['npm']],
    ['Use Y instead of X for the queue.', ['X']],
    ['Use vitest instead of jest in this repo.', ['jest']],
    ['We no longer use jest.', ['jest']],
    ['We moved from Heroku to fly.io.', ['Heroku']],
    ['The DB moved from port 5432 to 6543.', ['port 5432']],
    ['Moment.js is replaced by date-fns.', ['Moment.js']],
    ['Going with Postgres instead of MySQL.', ['MySQL']],
    ['Use pnpm, not npm.', ['npm']],
    ['We upgraded from Node 18 to Node 20.', ['Node 18']],
  ])('%s → %j', (text, old) => {
    const out = run([user(text)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.replaces).toEqual(old);
  });

  it('does not let a temporary change retire what it stands in for', () => {
    const out = run([user('Until Friday, use the staging API instead of prod.')]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ stable: false });
    expect(out[0]!.replaces).toBeUndefined();
  });

  it('sets nothing for a plain preference', () => {
    const out = run([user('I prefer tabs over spaces.')]);
    expect(out).toHaveLength(1);
    expect(out[0]!.replaces).toBeUndefined();
  });
});

describe('extractHeuristic: time-bound statements', () => {
  it.each([
    'The staging DB is down today.',
    'For now, always run the e2e suite with `--workers 1`.',
    'Right now we use the mock payment provider at localhost:4000.',
    'At the moment, never deploy on Fridays.',
    'Temporarily, the API runs on port 9090.',
    'Until tomorrow, don\'t merge to main.',
  ])('%s → not stable, low importance', (text) => {
    const out = run([user(text)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.stable).toBe(false);
    expect(out[0]!.importance).toBeLessThanOrEqual(0.35);
  });

  it('keeps the same rule stable without the time words', () => {
    const out = run([user('Always run the e2e suite with `--workers 1`.')]);
    expect(out[0]).toMatchObject({ stable: true });
    expect(out[0]!.importance).toBeGreaterThanOrEqual(0.8);
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

  it('merges a repeat within one message once', () => {
    const m = user('Always use pnpm. Again: always use pnpm!');
    const out = run([m]);
    expect(out).toHaveLength(1);
    expect(out[0]!.messageIds).toEqual([m.id]);
  });

  it('leaves `at` unset when the transcript has no timestamp', () => {
    const out = run([user('Always use pnpm.', { timestamp: undefined })]);
    expect(out).toHaveLength(1);
    expect(out[0]!.at).toBeUndefined();
  });

  it('caps at maxMemories, keeping the most important and, on ties, the earliest', () => {
    const facts = ['The API runs on port 8080.', 'The config lives in config/app.yaml.', 'We deploy to fly.io.'].map((t) => user(t));
    const rules = Array.from({ length: 10 }, (_, i) => user(`Always run \`make check${i}\` before pushing.`));
    const out = run([...facts, ...rules], 5);
    expect(out).toHaveLength(5);
    expect(out.map((c) => c.messageIds[0])).toEqual(rules.slice(0, 5).map((m) => m.id));
    expect(run([...facts, ...rules], 12).filter((c) => c.type === 'fact').map((c) => c.content)).toEqual([
      'The API runs on port 8080.',
      'The config lives in config/app.yaml.',
    ]);
    expect(run([...facts, ...rules], 0)).toEqual([]);
  });

  it('returns candidates in the order they were said', () => {
    const out = run([user('We deploy to fly.io.'), user('Always use pnpm.'), user('I prefer tabs.')]);
    expect(out.map((c) => c.type)).toEqual(['fact', 'instruction', 'preference']);
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

  it('ignores a very long sentence without a standing marker', () => {
    const text = `The service that handles billing lives in services/billing and ${'talks to several other internal systems '.repeat(8)}.`;
    expect(run([user(text)])).toEqual([]);
    // A fact that runs on as long is dropped too, and kept when it ends in time.
    const fact = 'The config lives in config/app.yaml and is read by the API';
    expect(run([user(`${fact} ${'and by several other internal systems '.repeat(8)}.`)])).toEqual([]);
    expect(run([user(`${fact}.`)]).map((c) => c.type)).toEqual(['fact']);
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
    expect(performance.now() - start).toBeLessThan(1000);
    expect(out.map((c) => c.content)).toContain('From now on, always use pnpm.');
  });

  it('extracts from 10,000 user messages well within a second', () => {
    const pool = [...POSITIVE.map((p) => p.text), ...NEGATIVE];
    const messages = Array.from({ length: 10_000 }, (_, i) => user(`${pool[i % pool.length] ?? ''} (${i})`));
    // Best of three: a loaded CI machine can stall any single run; a slow extractor stalls all.
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const out = extractHeuristic({ sessionId: 's', messages, maxMemories: 20 });
      best = Math.min(best, performance.now() - start);
      expect(out.candidates).toHaveLength(20);
    }
    expect(best).toBeLessThan(1000);
  });
});
