/**
 * Labelled utterances for the heuristic extractor, HELD-OUT half: the tests assert on these and
 * only these (test/memory/extract/heuristic.test.ts). Do not tune the rules on them: use
 * heuristic-corpus-tuning.ts for that (it says how the corpus was split).
 */
import type { Positive } from './heuristic-corpus-tuning.js';

// What a person says in a coding session that should outlive it, labelled by hand.
export const POSITIVE: Positive[] = [
  // Standing instructions and preferences. Scope is the project's unless the person spoke about themselves
  // in general ("I prefer…") or about how the assistant should talk ("be concise", "reply in French").
  { text: "Please don't add comments to the code unless I ask.", type: 'instruction', scope: 'project' },
  { text: 'keep answers short', type: 'instruction', scope: 'user', content: 'Keep answers short.' },
  { text: 'Be concise.', type: 'instruction', scope: 'user' },
  { text: 'By default, write commit messages in the imperative mood.', type: 'instruction', scope: 'project' },
  { text: 'ok so btw always use conventional commits thanks', type: 'instruction', scope: 'project', content: 'Always use conventional commits.' },
  { text: 'Please use British English in docs.', type: 'instruction', scope: 'user' },
  { text: "I'd rather you ask before installing new dependencies.", type: 'preference', scope: 'user' },
  { text: 'I never use semicolons in JavaScript.', type: 'preference', scope: 'user' },
  // Standing instructions that name something of this project: project scope.
  { text: 'Make sure to run `pnpm lint` before pushing.', type: 'instruction', scope: 'project' },
  { text: 'Whenever you change the schema, regenerate the client with `pnpm db:generate`.', type: 'instruction', scope: 'project' },
  { text: 'We always squash-merge PRs.', type: 'instruction', scope: 'project' },
  { text: 'Remember to bump the version in package.json when releasing.', type: 'instruction', scope: 'project' },
  // Project facts.
  { text: 'remember that the API runs on port 8080', type: 'fact', scope: 'project', content: 'The API runs on port 8080.' },
  { text: 'We deploy to fly.io.', type: 'fact', scope: 'project' },
  { text: 'The config lives in config/app.yaml.', type: 'fact', scope: 'project' },
  { text: 'The default branch is `develop`.', type: 'fact', scope: 'project' },
  // Decisions, with the old thing when they replace one.
  { text: "Let's go with zod instead of yup.", type: 'decision', scope: 'project', replaces: ['yup'] },
  { text: 'We switched from jest to vitest last month.', type: 'decision', scope: 'project', replaces: ['jest'] },
  { text: 'The database moved from port 5432 to 6543.', type: 'decision', scope: 'project', replaces: ['port 5432'] },
  { text: "We don't use Docker anymore.", type: 'decision', scope: 'project', replaces: ['Docker'] },
  // Procedures and learnings.
  { text: 'the fix was to bump the node version to 20 in .nvmrc', type: 'learning', scope: 'project' },
  // Time-bound: kept, but not stable.
  { text: 'CI is flaky this week, just re-run failed jobs.', type: 'fact', scope: 'project', stable: false },
];

// Session chatter that must not become a memory.
export const NEGATIVE: string[] = [
  // Chat that opens with a standing marker.
  'Always good to hear.',
  'Always happy to help!',
  // One-off requests about the task at hand.
  'add a button to the settings page',
  'run the tests',
  'Revert the last commit.',
  'ok now rename `foo` to `bar` in src/index.ts',
  'make sure the tests pass',
  "don't change anything",
  'use a map here instead of an array',
  'please use the existing helper in utils.ts',
  "let's use a simpler approach",
  'Okay, please continue with step 3.',
  // Questions.
  'can you check why the CI is red?',
  "what's the port for the api?",
  'Why does it keep timing out?',
  // Chatter, hedges, reactions, narration.
  'thanks!',
  'never mind',
  'Yes, go ahead.',
  "Let me know when you're done.",
  'I like how you did that.',
  "I'm going to lunch, back in an hour.",
  "That's not what I meant, I meant the other file.",
  'It always fails on the second run.',
  'You never listen.',
  'I tried that, never worked.',
  'I switched to the feature branch to test it.',
  // Statements about the moment, not the project.
  'the tests in CI are failing',
  'The test in foo.test.ts uses a mock.',
  'The API is returning 500s on /login.',
  // Pasted output, listings, code.
  'src/\n  api/\n  cli/\npackage.json\nREADME.md\ntsconfig.json',
  'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\nValueError: we always use port 8080',
  '| name | port |\n|------|------|\n| api  | 8080 |',
  "> Always use the v2 API.\nthat's what the docs say, right?",
  'drwxr-xr-x  5 me staff  160 Mar  1 10:00 src\n-rw-r--r--  1 me staff 1200 Mar  1 10:00 package.json\n-rw-r--r--  1 me staff  300 Mar  1 10:00 tsconfig.json',
];
