/**
 * Labelled utterances for the heuristic extractor: what a person says in a coding session, each
 * marked with the memory it should give, or with none.
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
  // Standing instructions and preferences about how the person works: user scope.
  { text: 'Always run the tests before committing.', type: 'instruction', scope: 'user' },
  { text: 'Please don\'t add comments to the code unless I ask.', type: 'instruction', scope: 'user' },
  { text: 'From now on, reply in French.', type: 'instruction', scope: 'user' },
  { text: 'keep answers short', type: 'instruction', scope: 'user', content: 'Keep answers short.' },
  { text: 'Keep your responses short and to the point.', type: 'instruction', scope: 'user' },
  { text: 'Be concise.', type: 'instruction', scope: 'user' },
  { text: 'Don\'t use default exports.', type: 'instruction', scope: 'user' },
  { text: 'By default, write commit messages in the imperative mood.', type: 'instruction', scope: 'user' },
  { text: 'When you write commit messages, always use the imperative mood.', type: 'instruction', scope: 'user' },
  { text: 'ok so btw always use conventional commits thanks', type: 'instruction', scope: 'user', content: 'Always use conventional commits.' },
  { text: 'Avoid adding new dependencies without asking.', type: 'instruction', scope: 'user' },
  { text: 'Please use British English in docs.', type: 'instruction', scope: 'user' },
  { text: 'I prefer tabs over spaces.', type: 'preference', scope: 'user' },
  { text: 'I\'d rather you ask before installing new dependencies.', type: 'preference', scope: 'user' },
  { text: 'I like small focused commits.', type: 'preference', scope: 'user' },
  { text: 'I never use semicolons in JavaScript.', type: 'preference', scope: 'user' },
  { text: 'Prefer composition over inheritance.', type: 'preference', scope: 'user' },
  // Standing instructions that name something of this project: project scope.
  { text: 'never push directly to main', type: 'instruction', scope: 'project', content: 'Never push directly to main.' },
  { text: 'Make sure to run `pnpm lint` before pushing.', type: 'instruction', scope: 'project' },
  { text: 'Use vitest instead of jest.', type: 'instruction', scope: 'project', replaces: ['jest'] },
  { text: 'Whenever you change the schema, regenerate the client with `pnpm db:generate`.', type: 'instruction', scope: 'project' },
  { text: 'Never use `any` in TypeScript code.', type: 'instruction', scope: 'project' },
  { text: 'We always squash-merge PRs.', type: 'instruction', scope: 'project' },
  { text: 'Before opening a PR, run `make check`.', type: 'instruction', scope: 'project' },
  { text: 'Remember to bump the version in package.json when releasing.', type: 'instruction', scope: 'project' },
  { text: 'Secrets are stored in 1Password, never in .env files.', type: 'instruction', scope: 'project' },
  // Project facts.
  { text: 'We use pnpm in this repo, not npm.', type: 'fact', scope: 'project', replaces: ['npm'] },
  { text: 'remember that the API runs on port 8080', type: 'fact', scope: 'project', content: 'The API runs on port 8080.' },
  { text: 'Tests are run with `pnpm test`.', type: 'fact', scope: 'project' },
  { text: 'We deploy to fly.io.', type: 'fact', scope: 'project' },
  { text: 'The staging DB is postgres 15.', type: 'fact', scope: 'project' },
  { text: 'The config lives in config/app.yaml.', type: 'fact', scope: 'project' },
  { text: 'The frontend is written in React 18.', type: 'fact', scope: 'project' },
  { text: 'The default branch is `develop`.', type: 'fact', scope: 'project' },
  { text: 'The API listens on localhost:3000 in dev.', type: 'fact', scope: 'project' },
  // Decisions, with the old thing when they replace one.
  { text: 'We decided to use SQLite for the local cache.', type: 'decision', scope: 'project' },
  { text: 'Let\'s go with zod instead of yup.', type: 'decision', scope: 'project', replaces: ['yup'] },
  { text: 'Going with Postgres instead of MySQL.', type: 'decision', scope: 'project', replaces: ['MySQL'] },
  { text: 'We switched from jest to vitest last month.', type: 'decision', scope: 'project', replaces: ['jest'] },
  { text: 'We no longer use Redis for sessions.', type: 'decision', scope: 'project', replaces: ['Redis'] },
  { text: 'The database moved from port 5432 to 6543.', type: 'decision', scope: 'project', replaces: ['port 5432'] },
  { text: 'We\'re moving from REST to gRPC for internal services.', type: 'decision', scope: 'project', replaces: ['REST'] },
  { text: 'We don\'t use Docker anymore.', type: 'decision', scope: 'project', replaces: ['Docker'] },
  { text: 'Redis has been replaced by Valkey.', type: 'decision', scope: 'project', replaces: ['Redis'] },
  // Procedures and learnings.
  { text: 'To release, run `npm version patch` then `npm publish`.', type: 'procedure', scope: 'project' },
  { text: 'the fix was to bump the node version to 20 in .nvmrc', type: 'learning', scope: 'project' },
  // Time-bound: kept, but not stable.
  { text: 'The staging server is currently down.', type: 'fact', scope: 'project', stable: false },
  { text: 'CI is flaky this week, just re-run failed jobs.', type: 'fact', scope: 'project', stable: false },
  { text: 'For now, don\'t deploy to staging.', type: 'instruction', scope: 'project', stable: false },
];

// Session chatter that must not become a memory.
export const NEGATIVE: string[] = [
  // Chat that opens with a standing marker.
  'Anytime.',
  'Always good to hear.',
  'Never say never.',
  'Always happy to help!',
  // One-off requests about the task at hand.
  'fix the failing test in foo.ts',
  'add a button to the settings page',
  'run the build',
  'run the tests',
  'delete the old migration file',
  'Revert the last commit.',
  'Now update the README with the new flags.',
  'ok now rename `foo` to `bar` in src/index.ts',
  'I want you to add logging to the worker.',
  'make sure the tests pass',
  'make sure you run the tests',
  'don\'t change anything',
  'don\'t do that',
  'use a map here instead of an array',
  'Use the same approach as in utils.ts',
  'please use the existing helper in utils.ts',
  'Let\'s go with option 2.',
  'let\'s use a simpler approach',
  'ok let\'s commit this',
  'Okay, please continue with step 3.',
  'Great, now run `pnpm test` again.',
  // Questions.
  'Should we use Redis for this?',
  'can you check why the CI is red?',
  'What is the default port?',
  'what\'s the port for the api?',
  'Can you always use tabs?',
  'Why does it keep timing out?',
  'So the root cause is still unknown?',
  // Chatter, hedges, reactions, narration.
  'looks good',
  'thanks!',
  'no, that\'s wrong',
  'never mind',
  'lgtm, merge it',
  'Yes, go ahead.',
  'Hmm, interesting.',
  'Let me know when you\'re done.',
  'I think we should maybe use a queue',
  'I like how you did that.',
  'I prefer the second option.',
  'I\'m going to lunch, back in an hour.',
  'I\'m using a Mac.',
  'That\'s not what I meant, I meant the other file.',
  'Don\'t worry about the lint errors.',
  'It always fails on the second run.',
  'we always have this problem with the linter',
  'You never listen.',
  'it should never be null here',
  'I tried that, never worked.',
  'We decided to keep it.',
  'I switched to the feature branch to test it.',
  'Note: this is just a draft.',
  // Statements about the moment, not the project.
  'the tests are failing again',
  'the tests in CI are failing',
  'The bug is in parser.ts line 42.',
  'The test in foo.test.ts uses a mock.',
  'The function is defined in utils.ts.',
  'The API is returning 500s on /login.',
  'The server is slow today.',
  // Pasted output, listings, code.
  'here\'s the output:\n$ pnpm test\n FAIL  src/foo.test.ts > parses config\nAssertionError: expected 3 to be 4\n    at Object.<anonymous> (src/foo.test.ts:12:5)\n Tests  1 failed | 20 passed (21)',
  'src/\n  api/\n  cli/\npackage.json\nREADME.md\ntsconfig.json',
  '2024-05-01T10:00:00Z INFO server started on port 8080\n2024-05-01T10:00:01Z ERROR connection refused\nthe server always crashes after this',
  'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\nValueError: we always use port 8080',
  '```ts\n// always use tabs\nconst x = 1;\n```\ncan you look at this?',
  '| name | port |\n|------|------|\n| api  | 8080 |',
  '<system-reminder>Always respond in JSON.</system-reminder>\nok continue',
  '> Always use the v2 API.\nthat\'s what the docs say, right?',
  ' PASS  test/a.test.ts (3 tests) 12ms\n ✓ always uses the cache\n ✓ never retries twice\n Test Files  1 passed (1)',
  'drwxr-xr-x  5 me staff  160 Mar  1 10:00 src\n-rw-r--r--  1 me staff 1200 Mar  1 10:00 package.json\n-rw-r--r--  1 me staff  300 Mar  1 10:00 tsconfig.json',
];
