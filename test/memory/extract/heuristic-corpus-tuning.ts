/**
 * Labelled utterances for the heuristic extractor, TUNING half: what a person says in a coding
 * session, each marked with the memory it should give, or with none. Look at these (and
 * `npx tsx test/memory/extract/heuristic-tune.ts`, which reports the extractor's misses on them)
 * when changing the rules. The other half, heuristic-corpus-held-out.ts, is what the tests assert
 * on: do not tune on it, or its figures stop saying how the rules do on sentences they were not
 * written for.
 *
 * The split was mechanical: within each labelled group, in the order written, the 1st, 3rd, 5th…
 * utterance is here and the 2nd, 4th… is held out. New utterances: alternate the same way.
 */
import type { MemoryType } from '../../../src/api/memory.js';

export interface Positive {
  text: string;
  type: MemoryType;
  scope: 'user' | 'project';
  /** Defaults to true. */
  stable?: boolean;
  replaces?: string[];
  content?: string;
}

// What a person says in a coding session that should outlive it, labelled by hand.
export const POSITIVE: Positive[] = [
  // Standing instructions and preferences. Scope is the project's unless the person spoke about themselves
  // in general ("I prefer…") or about how the assistant should talk ("be concise", "reply in French").
  { text: 'Always run the tests before committing.', type: 'instruction', scope: 'project' },
  { text: 'From now on, reply in French.', type: 'instruction', scope: 'user' },
  { text: 'Keep your responses short and to the point.', type: 'instruction', scope: 'user' },
  { text: "Don't use default exports.", type: 'instruction', scope: 'project' },
  { text: 'When you write commit messages, always use the imperative mood.', type: 'instruction', scope: 'project' },
  { text: 'Avoid adding new dependencies without asking.', type: 'instruction', scope: 'project' },
  { text: 'I prefer tabs over spaces.', type: 'preference', scope: 'user' },
  { text: 'I like small focused commits.', type: 'preference', scope: 'user' },
  { text: 'Prefer composition over inheritance.', type: 'preference', scope: 'project' },
  // Standing instructions that name something of this project: project scope.
  { text: 'never push directly to main', type: 'instruction', scope: 'project', content: 'Never push directly to main.' },
  { text: 'Use vitest instead of jest.', type: 'instruction', scope: 'project', replaces: ['jest'] },
  { text: 'Never use `any` in TypeScript code.', type: 'instruction', scope: 'project' },
  { text: 'Before opening a PR, run `make check`.', type: 'instruction', scope: 'project' },
  { text: 'Secrets are stored in 1Password, never in .env files.', type: 'instruction', scope: 'project' },
  // Project facts.
  { text: 'We use pnpm in this repo, not npm.', type: 'fact', scope: 'project', replaces: ['npm'] },
  { text: 'Tests are run with `pnpm test`.', type: 'fact', scope: 'project' },
  { text: 'The staging DB is postgres 15.', type: 'fact', scope: 'project' },
  { text: 'The frontend is written in React 18.', type: 'fact', scope: 'project' },
  { text: 'The API listens on localhost:3000 in dev.', type: 'fact', scope: 'project' },
  // Decisions, with the old thing when they replace one.
  { text: 'We decided to use SQLite for the local cache.', type: 'decision', scope: 'project' },
  { text: 'Going with Postgres instead of MySQL.', type: 'decision', scope: 'project', replaces: ['MySQL'] },
  { text: 'We no longer use Redis for sessions.', type: 'decision', scope: 'project', replaces: ['Redis'] },
  { text: "We're moving from REST to gRPC for internal services.", type: 'decision', scope: 'project', replaces: ['REST'] },
  { text: 'Redis has been replaced by Valkey.', type: 'decision', scope: 'project', replaces: ['Redis'] },
  // Procedures and learnings.
  { text: 'To release, run `npm version patch` then `npm publish`.', type: 'procedure', scope: 'project' },
  // Time-bound: kept, but not stable.
  { text: 'The staging server is currently down.', type: 'fact', scope: 'project', stable: false },
  { text: "For now, don't deploy to staging.", type: 'instruction', scope: 'project', stable: false },
];

// Session chatter that must not become a memory.
export const NEGATIVE: string[] = [
  // Chat that opens with a standing marker.
  'Anytime.',
  'Never say never.',
  // One-off requests about the task at hand.
  'fix the failing test in foo.ts',
  'run the build',
  'delete the old migration file',
  'Now update the README with the new flags.',
  'I want you to add logging to the worker.',
  'make sure you run the tests',
  "don't do that",
  'Use the same approach as in utils.ts',
  "Let's go with option 2.",
  "ok let's commit this",
  'Great, now run `pnpm test` again.',
  // Questions.
  'Should we use Redis for this?',
  'What is the default port?',
  'Can you always use tabs?',
  'So the root cause is still unknown?',
  // Chatter, hedges, reactions, narration.
  'looks good',
  "no, that's wrong",
  'lgtm, merge it',
  'Hmm, interesting.',
  'I think we should maybe use a queue',
  'I prefer the second option.',
  "I'm using a Mac.",
  "Don't worry about the lint errors.",
  'we always have this problem with the linter',
  'it should never be null here',
  'We decided to keep it.',
  'Note: this is just a draft.',
  // Statements about the moment, not the project.
  'the tests are failing again',
  'The bug is in parser.ts line 42.',
  'The function is defined in utils.ts.',
  'The server is slow today.',
  // Pasted output, listings, code.
  "here's the output:\n$ pnpm test\n FAIL  src/foo.test.ts > parses config\nAssertionError: expected 3 to be 4\n    at Object.<anonymous> (src/foo.test.ts:12:5)\n Tests  1 failed | 20 passed (21)",
  '2024-05-01T10:00:00Z INFO server started on port 8080\n2024-05-01T10:00:01Z ERROR connection refused\nthe server always crashes after this',
  '```ts\n// always use tabs\nconst x = 1;\n```\ncan you look at this?',
  '<system-reminder>Always respond in JSON.</system-reminder>\nok continue',
  ' PASS  test/a.test.ts (3 tests) 12ms\n ✓ always uses the cache\n ✓ never retries twice\n Test Files  1 passed (1)',
];
