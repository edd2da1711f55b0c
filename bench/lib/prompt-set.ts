/**
 * A labelled set for prompt-time recall: memories of a made-up project, prompts that are about one
 * of them (by its words, as lexical recall needs), and prompts about nothing stored, some sharing
 * an incidental word with a memory. bench/prompt-recall.ts measures the scores on it; the threshold
 * in src/memory/recall/prompt-recall.ts was chosen from them.
 */
export interface StoredMemory {
  content: string;
  type: 'instruction' | 'preference' | 'fact' | 'decision' | 'procedure' | 'learning';
  /** User scope (about the person), else the project's. */
  user?: boolean;
}

export const MEMORIES: StoredMemory[] = [
  { content: 'Use pnpm, never npm, in this repository.', type: 'instruction' },
  { content: 'The staging database runs Postgres 15 on port 5433.', type: 'fact' },
  { content: 'Deploys to production go through the GitHub Actions workflow deploy.yml, never by hand.', type: 'procedure' },
  { content: 'We chose Vitest over Jest for the test suite because it runs ES modules natively.', type: 'decision' },
  { content: 'The API rate limiter allows 100 requests per minute per token.', type: 'fact' },
  { content: 'Prefer small pull requests, under 400 lines.', type: 'preference', user: true },
  { content: 'Feature flags live in config/flags.json and are read at startup.', type: 'fact' },
  { content: 'The billing service talks to Stripe through the wrapper in src/billing/stripe.ts.', type: 'fact' },
  { content: 'Always write commit messages in the imperative mood.', type: 'instruction', user: true },
  { content: 'Redis is used only as a cache; losing it must never lose data.', type: 'decision' },
  { content: 'Continuous integration runs on Node 20 and Node 22.', type: 'fact' },
  { content: 'Logs are JSON lines shipped to Loki; never log access tokens.', type: 'instruction' },
  { content: 'The mobile app uses React Native 0.74 with Expo.', type: 'fact' },
  { content: 'Timezone handling uses date-fns-tz; store UTC timestamps in the database.', type: 'decision' },
  { content: 'Product search uses Elasticsearch 8 with a custom analyzer for product names.', type: 'fact' },
  { content: 'I work on macOS with zsh; shell scripts must also run under bash.', type: 'fact', user: true },
  { content: 'The flaky checkout test fails when the clock crosses midnight UTC.', type: 'learning' },
  { content: 'Image uploads go to the S3 bucket acme-uploads in eu-west-1.', type: 'fact' },
  { content: 'The team reviews database migrations on Tuesdays.', type: 'fact' },
  { content: 'The invoice PDF generator uses Puppeteer with a headless Chromium.', type: 'fact' },
];

/** Prompts about one stored memory (its index in MEMORIES). */
export const RELATED: { prompt: string; memory: number }[] = [
  { prompt: 'add lodash to the project, npm install it', memory: 0 },
  { prompt: 'connect to the staging database and count the users', memory: 1 },
  { prompt: 'deploy this branch to production', memory: 2 },
  { prompt: 'write a jest test for the parser', memory: 3 },
  { prompt: 'why do clients get 429 errors from the rate limiter?', memory: 4 },
  { prompt: 'turn on the new checkout feature flag', memory: 6 },
  { prompt: 'refund the last customer through Stripe in the billing service', memory: 7 },
  { prompt: 'can we keep user sessions in redis?', memory: 9 },
  { prompt: 'the checkout test is flaky again, look into it', memory: 16 },
  { prompt: 'upload the product images to s3', memory: 17 },
  { prompt: 'add a database migration for the orders table', memory: 18 },
  { prompt: 'the invoice pdf is blank, check the generator', memory: 19 },
  { prompt: 'improve the elasticsearch analyzer so product names match partial words', memory: 14 },
  { prompt: 'fix the timezone bug: timestamps show in local time', memory: 13 },
];

/** Prompts about nothing stored; some share a word with a memory. */
export const UNRELATED: string[] = [
  'write a haiku about autumn leaves',
  'explain the difference between a process and a thread',
  'rename the variable foo to bar in utils.py',
  'what does the regex ^a+b$ match?',
  'summarize the README for me',
  'hi',
  'refactor this function so it is shorter',
  'what is 17 times 23?',
  'make the submit button blue',
  'list the files in this directory',
  'why is my laptop fan so loud',
  'read the file and tell me what it does',
  'write a unit test for the string helpers',
  'add a comment above the main function',
  'the build is slow, any ideas?',
  'sort these lines alphabetically',
];
