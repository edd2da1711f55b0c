/** The pure decisions of one recall answer: which excerpt repeats which memory, and what the budget keeps. */
import { describe, expect, it } from 'vitest';
import { echoes, holds, restates } from '../../../src/memory/recall/echo.js';
import { fillBudget, type Offer } from '../../../src/memory/recall/select.js';
import { dedupeKey } from '../../../src/memory/nlp/tidy.js';

const memory = (id: string, text: string, score: number, sources: string[] = [], tokens = 10): Offer<string> => ({
  item: id,
  score,
  tokens,
  wording: dedupeKey(text),
  sources,
});
const excerpt = (message: string, text: string, score: number, tokens = 10): Offer<string> => ({
  item: message,
  score,
  tokens,
  wording: dedupeKey(text),
  message,
});
const kept = (offers: Offer<string>[], budget = 1000) => fillBudget(offers, budget, -Infinity).map((o) => o.item);

describe('echoes: an excerpt repeats a memory', () => {
  const m = memory('m1', 'Builds run on the arm64 runners since March.', 1, ['s1#u7']);
  it('when its message is one of the memory’s sources, whatever the words', () => {
    expect(echoes(excerpt('s1#u7', 'ok so from now on the builds go to the new runners', 1), m)).toBe(true);
    expect(echoes(excerpt('s1#u8', 'ok so from now on the builds go to the new runners', 1), m)).toBe(false);
    expect(echoes(excerpt('s2#u7', 'ok so from now on the builds go to the new runners', 1), m)).toBe(false);
  });

  it('when one text holds the other as whole words, case and punctuation aside', () => {
    expect(echoes(excerpt('s9#a1', 'Right: builds run on the ARM64 runners since March, the x86 pool is gone.', 1), m)).toBe(true);
    expect(echoes(excerpt('s9#a2', 'arm64 runners', 1), m)).toBe(true);
    // Part of a word is not a word.
    expect(echoes(excerpt('s9#a3', 'arm6', 1), m)).toBe(false);
    expect(echoes(excerpt('s9#a4', 'Builds run on the x86 runners since March.', 1), m)).toBe(false);
  });

  it('never between two memories or two excerpts, and never on an empty text', () => {
    expect(echoes(memory('m2', 'Builds run on the arm64 runners since March.', 1), m)).toBe(false);
    expect(echoes(excerpt('s1#u7', 'a', 1), excerpt('s1#u8', 'a b', 1))).toBe(false);
    expect(holds('', 'builds')).toBe(false);
    expect(holds('builds', '')).toBe(false);
  });
});

describe('restates: two memories say one thing in other words', () => {
  const rule = dedupeKey('Auto-generated migrations from `mix ash.codegen` should always be reviewed and rewritten for SQLite compatibility.');
  it('when the longer holds most of the shorter’s content words, whichever comes first', () => {
    const summary = dedupeKey('`mix ash.codegen` for migration generation (auto-generated migrations often need SQLite fixes).');
    expect(restates(rule, summary)).toBe(true);
    expect(restates(summary, rule)).toBe(true);
  });

  it('never when a value differs, when they only share a topic, or when the shorter names too little', () => {
    expect(
      restates(
        dedupeKey('The staging database listens on port 5432 behind pgbouncer.'),
        dedupeKey('The staging database listens on port 5433 behind pgbouncer.'),
      ),
    ).toBe(false);
    expect(restates(rule, dedupeKey('Migrations run in CI against a throwaway SQLite file before merge.'))).toBe(false);
    expect(restates(dedupeKey('Use pnpm.'), dedupeKey('Use pnpm, never npm, for installs in this repository.'))).toBe(false);
    // Said the other way round, it is not the same statement.
    expect(
      restates(
        dedupeKey('Run the migrations against staging before the release branch is cut.'),
        dedupeKey('Do not run the migrations against staging before the release branch is cut.'),
      ),
    ).toBe(false);
    // One template filled twice is two statements.
    expect(
      restates(
        dedupeKey('Always run pnpm through the wrapper script in tools/pnpm.sh.'),
        dedupeKey('Always run ruff through the wrapper script in tools/ruff.sh.'),
      ),
    ).toBe(false);
    // The same framing before two statements says nothing of them.
    const framed = (fact: string) => dedupeKey(`Keep in mind for future sessions in this repo: ${fact}`);
    expect(restates(framed('the HTTP routes are all registered in src/routes.ts.'), framed('the database schema is defined in src/db/schema.ts.'))).toBe(false);
    expect(restates(framed('the API server listens on port 8080.'), framed('the API server listens on port 8080 in production.'))).toBe(true);
  });
});

describe('fillBudget: one answer says each thing once', () => {
  it('drops an excerpt ranked below a memory it repeats, and one ranked above it (the memory stays)', () => {
    const m = memory('m1', 'Deploys need a green canary first.', 2, ['s1#u3']);
    expect(kept([m, excerpt('s1#u3', 'please, deploys need a green canary first, ok?', 1)])).toEqual(['m1']);
    expect(kept([m, excerpt('s1#u3', 'please, deploys need a green canary first, ok?', 3)])).toEqual(['m1']);
    expect(kept([m, excerpt('s4#a1', 'the canary went green at noon', 3)])).toEqual(['s4#a1', 'm1']);
  });

  it('what a dropped excerpt took goes to the next offer', () => {
    const m = memory('m1', 'Deploys need a green canary first.', 2, ['s1#u3'], 10);
    const e = excerpt('s1#u3', 'something else entirely said there', 3, 20);
    const other = memory('m2', 'Rollbacks use the previous image tag.', 1, [], 15);
    // The excerpt fits first; the memory takes its place (20 freed, 10 used), and the rest fits.
    expect(kept([m, e, other], 30)).toEqual(['m1', 'm2']);
    // A memory that does not fit even in what the excerpt would free leaves the excerpt alone.
    expect(kept([memory('m3', 'Deploys need a green canary first.', 2, ['s1#u3'], 40), e], 30)).toEqual(['s1#u3']);
  });

  it('keeps one of two items with the same normalised text', () => {
    expect(kept([memory('m1', 'Use pnpm.', 2), memory('m2', 'use PNPM', 1)])).toEqual(['m1']);
    expect(kept([excerpt('s1#a', 'retry it twice', 2), excerpt('s2#b', 'Retry it, twice!', 1)])).toEqual(['s1#a']);
  });

  it('keeps the best of two memories that say one thing in other words, and gives the room to the next', () => {
    const lesson = memory('m1', 'A machine with relayId and lastActivity within 3 minutes is treated as online SMIB and skipped.', 3, [], 20);
    const cause = memory('m2', 'Most likely cause: the test machine has relayId set and lastActivity within 3 minutes, treated as online SMIB.', 2, [], 20);
    const other = memory('m3', 'API routes log through routeLogger.', 1, [], 10);
    expect(kept([lesson, cause, other], 50)).toEqual(['m1', 'm3']);
  });

  it('leaves out what repeats what the reader already has: an excerpt of its source, its wording, its slot', () => {
    const had = [{ wording: dedupeKey('Deploys need a green canary first.'), sources: ['s1#u3'], slot: 'deploy\u0000canary\u0000green' }];
    const fill = (offers: Offer<string>[]) => fillBudget(offers, 1000, -Infinity, had).map((o) => o.item);
    expect(fill([excerpt('s1#u3', 'anything said in that message', 2), excerpt('s2#a1', 'the canary went green at noon', 1)])).toEqual(['s2#a1']);
    expect(fill([excerpt('s7#a4', 'yes: deploys need a green canary first, always', 2)])).toEqual([]);
    expect(fill([memory('m2', 'deploys need a GREEN canary first', 2)])).toEqual([]);
    expect(fill([{ ...memory('m3', 'Canary must be green before a deploy.', 2), slot: 'deploy\u0000canary\u0000green' }])).toEqual([]);
    expect(fill([memory('m5', 'A deploy needs a green canary first, in every environment.', 2)])).toEqual([]);
    expect(fill([memory('m4', 'Rollbacks use the previous image tag.', 1)])).toEqual(['m4']);
  });
});
