/**
 * Synthetic coding memories and transcript text: sentences from templates over a varied vocabulary,
 * from a seeded generator so every run sees the same data.
 */
import type { MemoryType } from '../../src/api/memory.js';

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

export const V = {
  pkg: ['pnpm', 'npm', 'yarn', 'bun', 'uv', 'poetry', 'pip', 'cargo', 'go', 'gradle', 'maven', 'bazel', 'nix', 'conda', 'composer', 'bundler'],
  runner: ['vitest', 'jest', 'mocha', 'pytest', 'cargo test', 'go test', 'rspec', 'phpunit', 'playwright', 'cypress', 'ava', 'tap', 'nextest', 'unittest'],
  linter: ['eslint', 'biome', 'ruff', 'flake8', 'clippy', 'golangci-lint', 'rubocop', 'stylelint', 'shellcheck', 'hadolint', 'mypy', 'pyright', 'tsc --noEmit'],
  formatter: ['prettier', 'black', 'rustfmt', 'gofmt', 'dprint', 'biome format', 'isort', 'clang-format', 'shfmt', 'ktlint'],
  lang: ['TypeScript', 'Python', 'Rust', 'Go', 'Kotlin', 'Java', 'Ruby', 'Elixir', 'C++', 'Swift', 'Scala', 'Zig', 'PHP', 'Haskell'],
  service: [
    'billing',
    'auth',
    'gateway',
    'search',
    'ingest',
    'notifier',
    'scheduler',
    'ledger',
    'payments',
    'profile',
    'catalog',
    'inventory',
    'reporting',
    'exporter',
    'webhooks',
    'checkout',
    'invoicing',
    'mailer',
    'thumbnailer',
    'geocoder',
    'recommender',
    'audit',
    'quota',
    'metering',
    'onboarding',
    'sso',
    'feature-flags',
    'analytics',
    'crawler',
    'sync',
  ],
  component: [
    'router',
    'cache layer',
    'retry queue',
    'rate limiter',
    'session store',
    'migration runner',
    'CSV importer',
    'PDF renderer',
    'token refresher',
    'websocket hub',
    'cron worker',
    'job scheduler',
    'config loader',
    'schema validator',
    'price calculator',
    'tax engine',
    'diff viewer',
    'search indexer',
    'upload handler',
    'event bus',
    'connection pool',
    'circuit breaker',
    'feature flag client',
    'email templater',
    'permission checker',
    'GraphQL resolver',
    'gRPC client',
    'date parser',
    'currency formatter',
    'audit logger',
  ],
  dir: [
    'src',
    'lib',
    'packages/core',
    'packages/web',
    'apps/api',
    'apps/admin',
    'internal',
    'pkg',
    'crates/engine',
    'services',
    'cmd',
    'server',
    'client',
    'modules',
    'tools',
    'scripts',
  ],
  file: [
    'index',
    'config',
    'client',
    'server',
    'router',
    'handlers',
    'models',
    'schema',
    'utils',
    'retry',
    'queue',
    'cache',
    'auth',
    'db',
    'migrations',
    'worker',
    'pricing',
    'tax',
    'export',
    'import',
    'parser',
    'render',
    'session',
    'metrics',
    'flags',
    'locale',
    'money',
    'dates',
  ],
  ext: ['ts', 'tsx', 'py', 'rs', 'go', 'kt', 'rb', 'ex', 'java', 'swift'],
  env: [
    'staging',
    'production',
    'the canary cluster',
    'the preview environment',
    'eu-west-1',
    'us-east-2',
    'the dev cluster',
    'the on-prem rack',
    'QA',
    'the sandbox',
  ],
  ci: ['GitHub Actions', 'GitLab CI', 'Buildkite', 'CircleCI', 'Jenkins', 'Drone', 'Argo Workflows', 'Tekton', 'TeamCity', 'Woodpecker'],
  branch: ['main', 'master', 'develop', 'trunk', 'release', 'next', 'stable', 'production'],
  db: [
    'Postgres',
    'MySQL',
    'SQLite',
    'Redis',
    'MongoDB',
    'ClickHouse',
    'DynamoDB',
    'Cassandra',
    'Elasticsearch',
    'CockroachDB',
    'Kafka',
    'RabbitMQ',
    'NATS',
    'Memcached',
  ],
  person: ['Alice', 'Bob', 'Priya', 'Kenji', 'Fatima', 'Lars', 'Mei', 'Diego', 'Olga', 'Tunde', 'Hannah', 'Ravi', 'Sofia', 'Marek', 'Aisha', 'Tom'],
  style: [
    'early returns',
    'small pure functions',
    'named exports',
    'explicit types on public functions',
    'composition over inheritance',
    'immutable data',
    'async/await over raw promises',
    'table-driven tests',
    'descriptive variable names',
    'guard clauses',
    'dependency injection',
    'result types over exceptions',
    'snake_case file names',
    'kebab-case file names',
    'two-space indentation',
    'tabs for indentation',
    'single quotes',
    'trailing commas',
    'short commit messages',
    'conventional commits',
  ],
  antiStyle: [
    'default exports',
    'deep nesting',
    'any types',
    'global state',
    'magic numbers',
    'mocking everything',
    'large god objects',
    'comments that restate the code',
    'long parameter lists',
    'one-letter names',
    'console.log debugging left in',
    'barrel files',
    'class hierarchies',
    'callbacks',
  ],
  cause: [
    'a race between two writers',
    'a missing await',
    'float rounding',
    'an off-by-one in the pager',
    'a stale cache entry',
    'the timezone of the CI runner',
    'a leaked file handle',
    'an unbounded retry loop',
    'a wrong locale in tests',
    'a shared mutable fixture',
    'DNS caching',
    'clock skew between nodes',
    'an expired test certificate',
    'a missing index on the join column',
    'N+1 queries',
    'a memory leak in the event listeners',
    'a deadlock on the advisory lock',
    'HTTP keep-alive timeouts',
    'unicode normalisation',
    'a lost update under concurrency',
  ],
  fix: [
    'wrapping it in a transaction',
    'adding the await',
    'using integer cents',
    'pinning TZ=UTC',
    'clearing the cache on write',
    'closing the handle in finally',
    'capping retries at five',
    'sorting before comparing',
    'using a fresh fixture per test',
    'adding a composite index',
    'batching the queries',
    'removing the listener on unmount',
    'taking the locks in a fixed order',
    'raising the idle timeout',
    'normalising to NFC',
    'using optimistic locking',
  ],
  verb: [
    'deploy',
    'release',
    'publish',
    'roll back',
    'migrate',
    'seed',
    'rebuild',
    'profile',
    'benchmark',
    'bisect',
    'rotate secrets for',
    'scale',
    'snapshot',
    'restore',
  ],
  tool: [
    'docker compose',
    'kubectl',
    'helm',
    'terraform',
    'ansible',
    'make',
    'just',
    'task',
    'tilt',
    'skaffold',
    'pulumi',
    'nx',
    'turbo',
    'lerna',
    'direnv',
    'mise',
  ],
  editorial: ['concise', 'short', 'direct', 'detailed', 'terse', 'friendly', 'formal'],
  lib: [
    'zod',
    'pino',
    'express',
    'fastify',
    'react-query',
    'sqlalchemy',
    'pydantic',
    'tokio',
    'serde',
    'axum',
    'gin',
    'sqlx',
    'prisma',
    'drizzle',
    'knex',
    'lodash',
    'date-fns',
    'luxon',
    'axios',
    'undici',
    'celery',
    'sidekiq',
    'oban',
    'ktor',
    'spring',
    'hibernate',
  ],
};

const path = (r: Rand) => `${pick(r, V.dir)}/${pick(r, V.file)}.${pick(r, V.ext)}`;
const ticket = (r: Rand) => `${pick(r, ['INV', 'OPS', 'BUG', 'PLAT', 'SEC', 'WEB', 'API', 'DATA'])}-${int(r, 100, 9999)}`;
const version = (r: Rand) => `${int(r, 1, 22)}.${int(r, 0, 30)}`;

export interface Templated {
  text: string;
  type: MemoryType;
  /** Suggested scope: user-level habits vs project facts. */
  scope: 'user' | 'project';
}

type Template = (r: Rand) => Templated;

const T: Template[] = [
  (r) => ({
    text: `Always run \`${pick(r, V.pkg)} ${pick(r, ['test', 'lint', 'build', 'check', 'typecheck'])}\` before pushing to ${pick(r, V.branch)}.`,
    type: 'instruction',
    scope: 'project',
  }),
  (r) => ({ text: `We use ${pick(r, V.pkg)} in this repo, never ${pick(r, V.pkg)}; the lockfile is checked in.`, type: 'instruction', scope: 'project' }),
  (r) => ({ text: `The ${pick(r, V.service)} service listens on port ${int(r, 1024, 65000)} in local development.`, type: 'fact', scope: 'project' }),
  (r) => ({ text: `I prefer ${pick(r, V.style)} over ${pick(r, V.antiStyle)} in ${pick(r, V.lang)} code.`, type: 'preference', scope: 'user' }),
  (r) => ({ text: `Keep answers ${pick(r, V.editorial)} and show the diff before explaining it.`, type: 'instruction', scope: 'user' }),
  (r) => ({ text: `The ${pick(r, V.component)} lives in ${path(r)} and is covered by ${pick(r, V.runner)} tests.`, type: 'fact', scope: 'project' }),
  (r) => ({
    text: `Deploys to ${pick(r, V.env)} go through ${pick(r, V.ci)} from the ${pick(r, V.branch)} branch, tagged v${version(r)}.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `The flaky ${pick(r, V.component)} test was caused by ${pick(r, V.cause)}; fixed by ${pick(r, V.fix)} (${ticket(r)}).`,
    type: 'learning',
    scope: 'project',
  }),
  (r) => ({
    text: `${pick(r, V.person)} owns the ${pick(r, V.service)} ${pick(r, V.component)}; ask before changing ${path(r)}.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `We decided to move the ${pick(r, V.component)} from ${pick(r, V.lib)} to ${pick(r, V.lib)} in ${ticket(r)}.`,
    type: 'decision',
    scope: 'project',
  }),
  (r) => ({
    text: `To ${pick(r, V.verb)} the ${pick(r, V.service)} service, run \`${pick(r, V.tool)} ${pick(r, ['up', 'apply', 'run', 'deploy', 'release'])} ${pick(r, V.service)}\` then check the ${pick(r, V.db)} dashboards.`,
    type: 'procedure',
    scope: 'project',
  }),
  (r) => ({
    text: `The ${pick(r, V.service)} database is ${pick(r, V.db)} ${version(r)}; migrations live in ${pick(r, V.dir)}/migrations.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `Format ${pick(r, V.lang)} with ${pick(r, V.formatter)} and lint with ${pick(r, V.linter)}; CI fails on warnings.`,
    type: 'instruction',
    scope: 'project',
  }),
  (r) => ({
    text: `Never commit directly to ${pick(r, V.branch)}; open a pull request and wait for ${pick(r, V.person)} or ${pick(r, V.person)} to review.`,
    type: 'instruction',
    scope: 'user',
  }),
  (r) => ({ text: `I like ${pick(r, V.style)} and I dislike ${pick(r, V.antiStyle)}.`, type: 'preference', scope: 'user' }),
  (r) => ({
    text: `Integration tests for ${pick(r, V.service)} need ${pick(r, V.db)} running locally: start it with \`${pick(r, V.tool)} up ${pick(r, V.db).toLowerCase()}\` on port ${int(r, 1024, 65000)}.`,
    type: 'procedure',
    scope: 'project',
  }),
  (r) => ({
    text: `The ${pick(r, V.component)} timeout is ${int(r, 2, 120)} seconds because ${pick(r, V.service)} calls can stall under load.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `Use ${pick(r, V.lib)} for ${pick(r, ['validation', 'logging', 'HTTP calls', 'dates', 'database access', 'background jobs', 'config parsing', 'serialization'])} in the ${pick(r, V.service)} code, not ${pick(r, V.lib)}.`,
    type: 'instruction',
    scope: 'project',
  }),
  (r) => ({
    text: `Debugging ${pick(r, V.service)} in ${pick(r, V.env)}: the logs are in ${pick(r, ['Loki', 'Datadog', 'CloudWatch', 'Kibana', 'Grafana', 'Honeycomb', 'Sentry'])} under the ${pick(r, V.service)}-${int(r, 1, 99)} stream.`,
    type: 'note',
    scope: 'project',
  }),
  (r) => ({ text: `Write commit messages in the imperative and reference the ticket, e.g. ${ticket(r)}.`, type: 'instruction', scope: 'user' }),
  (r) => ({
    text: `Learned: ${pick(r, V.cause)} made the ${pick(r, V.service)} ${pick(r, V.component)} fail on ${pick(r, V.env)}; ${pick(r, V.fix)} solved it.`,
    type: 'learning',
    scope: 'project',
  }),
  (r) => ({
    text: `The ${pick(r, V.service)} API rate limit is ${int(r, 10, 5000)} requests per minute per key in ${pick(r, V.env)}.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `Feature flags for ${pick(r, V.service)} are read from ${path(r)} at startup and refreshed every ${int(r, 5, 600)} seconds.`,
    type: 'fact',
    scope: 'project',
  }),
  (r) => ({
    text: `When touching ${path(r)}, regenerate the ${pick(r, ['OpenAPI client', 'protobuf stubs', 'GraphQL types', 'SQL models', 'fixtures', 'snapshots'])} with \`${pick(r, V.tool)} generate\`.`,
    type: 'procedure',
    scope: 'project',
  }),
];

/** One memory sentence; `salt` adds a distinguishing value so large sets stay mostly distinct. */
export function memorySentence(r: Rand): Templated {
  return pick(r, T)(r);
}

/** A near-duplicate of `text`: case, punctuation or one small word changed; or two words swapped. */
export function nearDuplicate(r: Rand, text: string): string {
  const k = r();
  if (k < 0.25) return text.toLowerCase();
  if (k < 0.5) return text.replace(/[.;]$/, '').replace(/;/g, ',') + '!';
  if (k < 0.75) return `${pick(r, ['Reminder:', 'Note:', 'FYI', 'Heads up:', 'Please remember:'])} ${text}`;
  const w = text.split(' ');
  const i = int(r, 1, Math.max(1, w.length - 3));
  [w[i], w[i + 1]] = [w[i + 1] as string, w[i] as string];
  return w.join(' ');
}

/** A query as a person or agent would phrase it, about something the memories talk about. */
export function recallQuery(r: Rand): string {
  const qs: ((r: Rand) => string)[] = [
    (r) => `how do we deploy the ${pick(r, V.service)} service`,
    (r) => `flaky ${pick(r, V.component)} test`,
    (r) => `which port does ${pick(r, V.service)} use`,
    (r) => `${pick(r, V.db)} migrations for ${pick(r, V.service)}`,
    (r) => `who owns ${pick(r, V.component)}`,
    (r) => `lint and format ${pick(r, V.lang)}`,
    (r) => `${pick(r, V.cause)}`,
    (r) => `rate limit ${pick(r, V.service)} api`,
    (r) => `fix ${pick(r, V.component)} timeout in ${pick(r, V.env)}`,
    (r) => `package manager ${pick(r, V.pkg)}`,
  ];
  return pick(r, qs)(r);
}
