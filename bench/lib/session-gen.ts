/**
 * Many Claude Code sessions of ONE project, in time order (one a day), for the longitudinal stress
 * benchmark. Seeded and deterministic: the same seed and count give the same files byte for byte.
 *
 * What the person types, session after session: one-off requests and questions (most of it), acks,
 * a dozen standing rules (introduced once, restated now and then in other words), facts about the
 * stack, tools replaced over time (jest early, "switch to vitest from now on" later, then vitest
 * restated), and bugs reported then, a few sessions later, said to be fixed. Between them the
 * assistant's replies and tool_use / tool_result pairs (Edit, Bash with exit codes, Read) on the
 * project's files, run with the tools current at that session. Lines are written with the tests'
 * `ClaudeSession` (the real Claude Code JSONL shape: parentUuid chain, cwd, sessionId, timestamps).
 *
 * The ground truth (which rule, switch, fact and bug each statement belongs to, and when) comes
 * back with the files, so a benchmark can say which memories are current and which are history.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClaudeSession } from '../../test/helpers/session-lines.js';
import { int, pick, rng, V, type Rand } from './memgen.js';

const DAY = 86_400_000;

/** A standing rule: every phrasing must match `re`; `user`: about the person, not the project. */
interface RuleDef {
  id: string;
  re: RegExp;
  user?: boolean;
  say: string[];
}

const RULES: RuleDef[] = [
  {
    id: 'no-push-main',
    re: /\bpush\w*\b.*\bmain\b/i,
    say: [
      'Never push directly to main, always open a PR.',
      "Don't push straight to main; everything goes through a pull request.",
      'All changes go through a PR, no direct pushes to main please.',
      'reminder: no pushing to main directly, open a pull request',
    ],
  },
  {
    id: 'conventional-commits',
    re: /conventional commit/i,
    say: [
      'Use conventional commit messages (feat:, fix:, chore:).',
      'Commit messages must follow conventional commits.',
      'please keep the commit messages in the conventional commits format',
      'Write every commit as a conventional commit, feat/fix/chore prefixes.',
    ],
  },
  {
    id: 'cents',
    re: /\bcents\b/i,
    say: [
      'Store money as integer cents, never floats.',
      "Prices are integers in cents; don't use floating point for money.",
      'never use floats for money, keep amounts in cents',
      'Amounts are always stored in cents as integers.',
    ],
  },
  {
    id: 'ask-before-deps',
    re: /dependenc|new package/i,
    say: [
      "Don't add new dependencies without asking me first.",
      'Ask before adding any new package.',
      'Check with me before pulling in a new dependency.',
      'no new dependencies unless I approve them',
    ],
  },
  {
    id: 'named-exports',
    re: /default exports?/i,
    say: [
      'Use named exports, never default exports.',
      'No default exports in this codebase.',
      'please avoid default exports, named exports only',
      'Default exports are not allowed here; export things by name.',
    ],
  },
  {
    id: 'utc',
    re: /\bUTC\b/,
    say: [
      'All timestamps are stored in UTC.',
      'Keep every date in the database in UTC.',
      'store times in UTC and convert only in the UI',
      'Dates go into the DB as UTC, always.',
    ],
  },
  {
    id: 'regression-test',
    re: /regression test/i,
    say: [
      'Every bug fix needs a regression test.',
      'Add a regression test for each bug you fix.',
      'no fix gets merged without a regression test',
      'Bug fixes come with a regression test, always.',
    ],
  },
  {
    id: 'no-pii-logs',
    re: /emails?\b.*\btokens?\b/i,
    say: [
      'Never log customer emails or tokens.',
      "Don't write customer emails or auth tokens to the logs.",
      'make sure no emails or tokens end up in the logs',
      'Logs must never contain customer emails or access tokens.',
    ],
  },
  {
    id: 'handlers-dir',
    re: /apps\/api\/src\/handlers/,
    say: [
      'New API handlers go under apps/api/src/handlers.',
      'Put every new endpoint handler in apps/api/src/handlers.',
      'handlers live in apps/api/src/handlers, keep new ones there',
    ],
  },
  {
    id: 'feature-flags',
    re: /user[- ]facing/i,
    say: ['Anything user-facing ships behind a feature flag.', 'Put new user-facing features behind a flag.', 'user facing changes need a feature flag first'],
  },
  {
    id: 'full-suite',
    re: /\bsuite\b/i,
    say: [
      "Run the full test suite before telling me it's done.",
      "Don't say it's done until the whole test suite passes.",
      'make sure the full suite is green before you report back',
    ],
  },
  {
    id: 'short-answers',
    re: /\b(short|brief)\b/i,
    user: true,
    say: [
      'Keep your answers short, bullet points are fine.',
      'I prefer short answers, no long explanations.',
      'please be brief in your replies',
      'Short replies please, skip the long explanations.',
    ],
  },
  {
    id: 'small-commits',
    re: /\bsmall\b.*\bcommits?\b|\bcommits?\b.*\bsmall\b/i,
    user: true,
    say: ['I like small commits, one change each.', 'Keep commits small and focused.', 'I prefer several small commits over one big one.'],
  },
];

/** Facts about the stack that do not change: said once, now and then again. */
const FACTS: RuleDef[] = [
  { id: 'port', re: /\b8080\b/, say: ['The API listens on port 8080.', 'our api runs on port 8080', 'The API port is 8080.'] },
  { id: 'staging', re: /staging\.acme-shop\.dev/, say: ['Staging is at staging.acme-shop.dev.', 'the staging environment lives at staging.acme-shop.dev'] },
  { id: 'stripe', re: /\bstripe\b/i, say: ['Payments go through Stripe.', 'We use Stripe for payments and refunds.'] },
  { id: 'nightly-export', re: /nightly export/i, say: ['The nightly export job runs at 2am.', 'the nightly export starts at two in the morning'] },
  { id: 'admin-react', re: /\badmin\b.*\breact\b|\breact\b.*\badmin\b/i, say: ['The admin app is built with React.', 'apps/admin is a React app.'] },
  { id: 'node-20', re: /\bnode 20\b/i, say: ["We're on Node 20 everywhere.", 'CI and prod both run Node 20.'] },
  { id: 'bullmq', re: /\bbullmq\b/i, say: ['Background jobs run on BullMQ with Redis.', 'jobs are queued in Redis through BullMQ'] },
  { id: 'billing-owner', re: /\bpriya\b/i, say: ['Priya owns the billing service, ask her about invoices.', 'the billing service belongs to Priya'] },
];

interface SwitchDef {
  category: string;
  old: string;
  now: string;
  noun: string;
  purpose: string;
  /** When the switch happens, as a share of the sessions. */
  at: number;
  /** The file the switch changes, and the command that tries the new tool. */
  file: string;
  command: string;
  /** The words that name each (for telling statements apart). */
  oldRe: RegExp;
  nowRe: RegExp;
}

const SWITCHES: SwitchDef[] = [
  {
    category: 'test framework',
    old: 'jest',
    now: 'vitest',
    noun: 'test runner',
    purpose: 'tests',
    at: 0.35,
    file: 'vitest.config.ts',
    command: 'pnpm add -D vitest && pnpm exec vitest run',
    oldRe: /\bjest\b/i,
    nowRe: /\bvitest\b/i,
  },
  {
    category: 'package manager',
    old: 'npm',
    now: 'pnpm',
    noun: 'package manager',
    purpose: 'installs',
    at: 0.2,
    file: 'pnpm-workspace.yaml',
    command: 'rm package-lock.json && pnpm install',
    oldRe: /\bnpm\b/i,
    nowRe: /\bpnpm\b/i,
  },
  {
    category: 'linter',
    old: 'eslint',
    now: 'biome',
    noun: 'linter',
    purpose: 'linting',
    at: 0.6,
    file: 'biome.json',
    command: 'pnpm add -D @biomejs/biome && pnpm exec biome check .',
    oldRe: /\beslint\b/i,
    nowRe: /\bbiome\b/i,
  },
  {
    category: 'database',
    old: 'MySQL',
    now: 'Postgres',
    noun: 'database',
    purpose: 'the main database',
    at: 0.45,
    file: 'docker-compose.yml',
    command: 'docker compose up -d postgres',
    oldRe: /\bmysql\b/i,
    nowRe: /\bpostgres\b/i,
  },
  {
    category: 'deploy target',
    old: 'Heroku',
    now: 'Railway',
    noun: 'hosting',
    purpose: 'deploys',
    at: 0.7,
    file: 'railway.json',
    command: 'railway up --detach',
    oldRe: /\bheroku\b/i,
    nowRe: /\brailway\b/i,
  },
  {
    category: 'orm',
    old: 'Sequelize',
    now: 'Prisma',
    noun: 'ORM',
    purpose: 'database access',
    at: 0.55,
    file: 'prisma/schema.prisma',
    command: 'pnpm exec prisma migrate dev',
    oldRe: /\bsequelize\b/i,
    nowRe: /\bprisma\b/i,
  },
  {
    category: 'ci',
    old: 'CircleCI',
    now: 'GitHub Actions',
    noun: 'CI',
    purpose: 'CI',
    at: 0.3,
    file: '.github/workflows/ci.yml',
    command: 'gh workflow run ci.yml',
    oldRe: /\bcircleci\b/i,
    nowRe: /\bgithub actions\b/i,
  },
  {
    category: 'dates',
    old: 'moment',
    now: 'date-fns',
    noun: 'date library',
    purpose: 'date handling',
    at: 0.5,
    file: 'packages/core/src/dates.ts',
    command: 'pnpm remove moment && pnpm add date-fns',
    oldRe: /\bmoment\b/i,
    nowRe: /\bdate-fns\b/i,
  },
];

const CURRENT = [
  (t: string, s: SwitchDef) => `We use ${t} for ${s.purpose}.`,
  (t: string, s: SwitchDef) => `${cap(t)} is our ${s.noun}.`,
  (t: string, s: SwitchDef) => `our ${s.noun} is ${t}, keep using it`,
  (t: string, s: SwitchDef) => `Remember we're on ${t} for ${s.purpose}.`,
];
const SWITCH = [
  (s: SwitchDef) => `Switch to ${s.now} from now on, we're dropping ${s.old}.`,
  (s: SwitchDef) => `We're moving from ${s.old} to ${s.now} for ${s.purpose}.`,
  (s: SwitchDef) => `Use ${s.now} instead of ${s.old} going forward.`,
  (s: SwitchDef) => `Let's replace ${s.old} with ${s.now} as our ${s.noun}.`,
];
const AFTER = [
  ...CURRENT,
  (t: string, s: SwitchDef) => `${cap(t)} is the ${s.noun} now, not ${s.old}.`,
  (t: string, s: SwitchDef) => `we're fully on ${t} for ${s.purpose} now`,
];

interface Symptom {
  verb: string;
  noun: string;
}
const SYMPTOMS: Symptom[] = [
  { verb: 'crashes', noun: 'crash' },
  { verb: 'hangs', noun: 'hang' },
  { verb: 'times out', noun: 'timeout' },
  { verb: 'returns a 500', noun: '500 error' },
  { verb: 'drops events', noun: 'dropped events' },
  { verb: 'leaks memory', noun: 'memory leak' },
  { verb: 'shows the wrong total', noun: 'wrong total' },
  { verb: 'sends duplicate emails', noun: 'duplicate emails' },
];
const CONDITIONS = [
  'the file is empty',
  'the cart has no items',
  'two requests arrive at once',
  'the session has expired',
  'the locale is de-DE',
  'the upload is over 2 GB',
  'the customer has no address',
  'the queue is empty',
  'the CSV has a BOM',
  'daylight saving time starts',
  'the coupon code has spaces',
  'the page size is zero',
];
const REPORT = [
  (c: string, s: Symptom, w: string) => `There's a bug: the ${c} ${s.verb} when ${w}.`,
  (c: string, s: Symptom, w: string) => `The ${c} ${s.verb} when ${w}, can you look into it?`,
  (c: string, s: Symptom, w: string) => `heads up, the ${c} ${s.verb} when ${w}`,
  (c: string, s: Symptom, w: string) => `Found a problem: when ${w}, the ${c} ${s.verb}.`,
];
const FIXED = [
  (c: string, s: Symptom, w: string) => `The ${c} no longer ${s.verb.replace(/es$|s$/, '')} when ${w}, that's fixed now.`,
  (c: string, s: Symptom, w: string) => `Confirmed the ${c} ${s.noun} when ${w} is fixed.`,
  (c: string, _s: Symptom, w: string) => `the ${c} works now even when ${w}, thanks`,
  (c: string, s: Symptom) => `${cap(c)} ${s.noun} is resolved.`,
];

/** Settings whose number changes once: said with the old value, then the new one (and again). */
interface SettingDef {
  id: string;
  /** Names the setting whatever its value. */
  re: RegExp;
  old: string;
  now: string;
  /** When the value changes, as a share of the sessions. */
  at: number;
  said: ((v: string) => string)[];
  change: (o: string, v: string) => string;
}

const SETTINGS: SettingDef[] = [
  {
    id: 'upload-limit',
    re: /\bupload limit\b/i,
    old: '50 MB',
    now: '200 MB',
    at: 0.4,
    said: [(v) => `The upload limit is ${v}.`, (v) => `uploads are capped at ${v}, that's the upload limit`],
    change: (o, v) => `Raise the upload limit from ${o} to ${v}.`,
  },
  {
    id: 'session-expiry',
    re: /\bsessions? expire\b/i,
    old: '30 minutes',
    now: '12 hours',
    at: 0.5,
    said: [(v) => `Sessions expire after ${v}.`, (v) => `user sessions expire after ${v} of inactivity`],
    change: (o, v) => `Sessions expire after ${v} now instead of ${o}.`,
  },
  {
    id: 'sync-interval',
    re: /\bsync job\b/i,
    old: '15 minutes',
    now: '5 minutes',
    at: 0.6,
    said: [(v) => `The inventory sync job runs every ${v}.`, (v) => `the sync job runs every ${v}`],
    change: (o, v) => `Change the inventory sync job to run every ${v} instead of every ${o}.`,
  },
  {
    id: 'log-retention',
    re: /\bkeep logs\b|\blogs are kept\b/i,
    old: '14 days',
    now: '90 days',
    at: 0.3,
    said: [(v) => `We keep logs for ${v}.`, (v) => `Logs are kept for ${v}.`],
    change: (o, v) => `From now on we keep logs for ${v}, not ${o}.`,
  },
  {
    id: 'rate-limit',
    re: /\brate limit\b/i,
    old: '100 requests per minute',
    now: '600 requests per minute',
    at: 0.65,
    said: [(v) => `The public API rate limit is ${v}.`, (v) => `our api rate limit is ${v} per key`],
    change: (o, v) => `Bump the public API rate limit from ${o} to ${v}.`,
  },
  {
    id: 'retry-cap',
    re: /\bretries\b.*\bcapped\b|\bcap retries\b/i,
    old: '3 attempts',
    now: '5 attempts',
    at: 0.45,
    said: [(v) => `Webhook retries are capped at ${v}.`, (v) => `we cap retries for webhooks at ${v}`],
    change: (o, v) => `Webhook retries are capped at ${v} now, ${o} was too few.`,
  },
];

const PEOPLE = ['Priya', 'Kenji', 'Fatima', 'Lars', 'Mei', 'Diego', 'Olga', 'Tunde', 'Hannah', 'Ravi', 'Sofia', 'Marek', 'Aisha', 'Tom'];
const ENV_KEYS = ['API_KEY', 'DATABASE_URL', 'REGION', 'TIMEOUT_MS', 'BUCKET', 'WEBHOOK_SECRET', 'REDIS_URL', 'SENTRY_DSN'];

/** A detail of the project said once: who owns what, where a config lives, what a service needs. */
function detail(r: Rand, w: World): string {
  const svc = pick(r, w.services);
  const other = pick(
    r,
    w.services.filter((x) => x !== svc),
  );
  const c = pick(r, w.components);
  return pick(r, [
    () => `The ${svc} service talks to the ${other} service over ${pick(r, ['gRPC', 'plain HTTP', 'the event bus', 'a Redis queue'])}.`,
    () => `${pick(r, PEOPLE)} is the owner of the ${svc} service.`,
    () => `The ${c} config lives in ${filePath(r)}.`,
    () => `The ${svc} service needs ${svc.toUpperCase().replace(/-/g, '_')}_${pick(r, ENV_KEYS)} set to start.`,
    () => `Turns out the ${c} was slow because of ${pick(r, V.cause)}; ${pick(r, V.fix)} fixed it.`,
    () => `We decided to keep the ${c} inside the ${svc} service for now.`,
    () => `The ${svc} dashboard is at grafana.acme-shop.dev/d/${svc}-${pick(r, ['overview', 'errors', 'latency', 'jobs'])}.`,
    () => `The feature flag ${svc}_${pick(r, ['v2', 'beta', 'new_ui', 'fast_path'])} controls the new ${c}.`,
    () => `The ${c} in the ${svc} service is written in ${pick(r, ['TypeScript', 'Go', 'Rust', 'Python'])}.`,
  ])();
}

const FN_A = ['get', 'load', 'save', 'parse', 'render', 'compute', 'build', 'apply', 'resolve', 'handle', 'fetch', 'sync', 'format', 'check', 'merge', 'queue'];
const FN_B = ['Invoice', 'User', 'Session', 'Order', 'Price', 'Tax', 'Token', 'Cart', 'Route', 'Coupon', 'Refund', 'Report', 'Account', 'Payment', 'Shipment'];
const FN_C = ['', 'ById', 'Batch', 'Async', 'Total', 'Items', 'State', 'Options', 'Result', 'Rows'];
const COLUMNS = ['user_id', 'created_at', 'invoice_id', 'account_id', 'order_id', 'sku', 'status', 'updated_at'];

/** Messages of one session at most (the shortest have 15). */
const MAX_MESSAGES = 40;
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Ends a sentence that has no closing punctuation, to put another after it. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
const fnName = (r: Rand) => pick(r, FN_A) + pick(r, FN_B) + pick(r, FN_C);
const filePath = (r: Rand) =>
  `${pick(r, ['apps/api/src', 'apps/admin/src', 'packages/core/src', 'packages/web/src', 'scripts', 'apps/worker/src'])}/${pick(r, V.file)}.ts`;

/** A one-off request or a question: what most of a person's messages are, gone by the next session. */
function request(r: Rand, w: World): string {
  const text = frame(r, w);
  // The same ask is not typed the same way twice.
  const how = r();
  if (how < 0.15) return `${pick(r, ['can you', 'could you', 'please', 'pls', 'quick one:', 'next:', 'ok now'])} ${text}`;
  if (how < 0.25) return `${text} ${pick(r, ['please', 'when you get a chance', 'before lunch', 'no rush', 'for the demo', 'in this branch'])}`;
  return text;
}

function frame(r: Rand, w: World): string {
  const c = pick(r, w.components);
  const svc = pick(r, w.services);
  const e = pick(r, ENTITIES);
  const fn = fnName(r);
  return pick(r, [
    () => `add a retry to the ${c} for when the ${e} sync fails`,
    () => `Add retries with backoff to ${fn} in the ${svc} service.`,
    () => `make the ${c} timeout configurable per ${e}`,
    () => `rename ${fn} to ${fnName(r)}`,
    () => `bump ${pick(r, V.lib)} to ${int(r, 1, 9)}.${int(r, 0, 20)} in ${pick(r, DIRS)}`,
    () => `add logging around ${fn} in ${filePath(r)}`,
    () => `Can you split ${filePath(r)} into smaller files?`,
    () => `write a unit test for ${fn} with an empty ${e}`,
    () => `clean up the unused imports in ${filePath(r)}`,
    () => `add pagination to the ${e} list endpoint of the ${svc} service`,
    () => `move ${fn} into ${filePath(r)}`,
    () => `the ${svc} README says nothing about ${e}s, add a section`,
    () => `add an index on ${e.replace(/ /g, '_')}s.${pick(r, COLUMNS)}`,
    () => `profile ${fn}, it takes ${int(r, 200, 4000)} ms per ${e}`,
    () => `add a --dry-run flag to scripts/${pick(r, ['sync', 'import', 'export', 'backfill', 'purge'])}-${e.replace(/ /g, '-')}s.ts`,
    () => `Remove the dead code around ${fn} in ${filePath(r)}.`,
    () => `port ${fn} to async/await`,
    () => `why does ${fn} return null for a ${e} without a ${pick(r, FIELDS)}?`,
    () => `what does ${fn} do with archived ${e}s?`,
    () => `where do we set the ${c} limits for ${e}s?`,
    () => `Is ${fn} covered by tests?`,
    () => `how do I get some ${e}s into my local ${svc} database?`,
    () => `what's the difference between ${fn} and ${fnName(r)}?`,
    () => `explain how the ${c} handles ${e}s`,
    () => `skip the flaky ${fn} test for now, I'll look at it later`,
    () => `try caching the ${fn} results in memory in this PR`,
    () => `add a ${pick(r, FIELDS)} column to ${e.replace(/ /g, '_')}s`,
    () => `show me where ${fn} is called from`,
    () => `the ${e} email template has a typo in the ${pick(r, FIELDS)} line`,
    () => `add a command that exports ${e}s as CSV`,
    () => `log the ${e} id when ${fn} throws`,
    () => `rewrite ${fn} without the nested loops`,
    () => `why is the ${svc} build red on ${pick(r, ['my branch', 'the release branch', 'the last PR', 'this PR'])}?`,
  ])();
}

const ENTITIES = [
  'invoice',
  'order',
  'refund',
  'coupon',
  'shipment',
  'customer',
  'cart',
  'payment',
  'subscription',
  'plan',
  'tax rate',
  'price list',
  'warehouse',
  'supplier',
  'return',
  'voucher',
  'gift card',
  'receipt',
  'wishlist',
  'review',
  'category',
  'product',
  'variant',
  'bundle',
  'discount',
  'address',
  'carrier',
  'label',
  'ledger entry',
  'payout',
];
const FIELDS = ['currency', 'due date', 'country', 'email', 'VAT id', 'phone number', 'postcode', 'status', 'note', 'reference', 'owner', 'locale'];
const DIRS = ['apps/api', 'apps/admin', 'apps/worker', 'packages/core', 'packages/web'];

const ACKS = ['ok', 'looks good', 'great, commit it', 'thanks!', 'go ahead', 'yes', 'perfect', 'ship it', 'hmm, try again', 'no, revert that', 'ok continue'];

interface World {
  services: string[];
  components: string[];
}

export interface SwitchTruth {
  category: string;
  old: string;
  now: string;
  /** 0-based index of the session that says the switch. */
  at: number;
  oldRe: RegExp;
  nowRe: RegExp;
}
export interface StatementTruth {
  id: string;
  re: RegExp;
  user: boolean;
  /** Sessions (0-based) that said it, in order. */
  said: number[];
}
export interface BugTruth {
  id: string;
  component: string;
  condition: string;
  reported: number;
  /** The session that says it is fixed; undefined: still open at the end. */
  fixed?: number;
}
export interface SettingTruth {
  id: string;
  re: RegExp;
  old: string;
  now: string;
  /** 0-based index of the session that changes the value. */
  at: number;
}
export interface Truth {
  rules: StatementTruth[];
  facts: StatementTruth[];
  switches: SwitchTruth[];
  settings: SettingTruth[];
  bugs: BugTruth[];
  /** Details of the project each said once (one in two sessions has one). */
  details: { text: string; session: number }[];
}

export interface GenSession {
  file: string;
  sessionId: string;
  started: string;
  messages: number;
  userMessages: number;
}

/**
 * A statement the schedule puts in a session, typed by the person, and what the agent does about it
 * right after: its acknowledgement, the files it opens and the commands it runs (as an agent does
 * when told of a bug or a new tool: the topic comes back in the rest of the turn).
 */
interface Statement {
  text: string;
  ack?: string;
  files?: string[];
  commands?: string[];
}
type Planned = Statement[];
/** A tool call the agent makes. */
interface Action {
  kind: 'Read' | 'Edit' | 'Bash';
  file?: string;
  command?: string;
}

/** Writes `count` sessions into `dir` (a file each) for a project whose working directory is `cwd`. */
export function generateSessions(dir: string, o: { count: number; cwd: string; seed: number; start?: string }): { sessions: GenSession[]; truth: Truth } {
  const r = rng(o.seed);
  const n = o.count;
  const shuffled = <T>(xs: readonly T[]) =>
    [...xs]
      .map((x) => ({ x, k: r() }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);
  const world: World = { services: shuffled(V.service).slice(0, 8), components: shuffled(V.component).slice(0, 16) };
  const planned: Planned[] = Array.from({ length: n }, () => []);
  const add = (s: number, text: string, more: Omit<Statement, 'text'> = {}) => (planned[s] as Planned).push({ text, ...more });
  const understood = (text: string) =>
    r() < 0.6 ? `Got it: ${lowerFirst(text.replace(/[.!]$/, ''))}.` : pick(r, ['Understood.', "Noted, I'll keep to that.", 'OK.']);
  for (const d of [...RULES, ...FACTS]) for (const s of d.say) if (!d.re.test(s)) throw new Error(`phrasing "${s}" does not match ${String(d.re)}`);

  // Standing rules: introduced in the first half, restated now and then in other words.
  const statement = (d: RuleDef, from: number, p: number): StatementTruth => {
    const t: StatementTruth = { id: d.id, re: d.re, user: d.user === true, said: [] };
    let last = -1;
    const say = (s: number) => {
      let k = int(r, 0, d.say.length - 1);
      if (k === last) k = (k + 1) % d.say.length;
      last = k;
      add(s, d.say[k] as string, { ack: understood(d.say[k] as string) });
      t.said.push(s);
    };
    say(from);
    for (let s = from + 1; s < n; s++) if (r() < p) say(s);
    return t;
  };
  const rules = RULES.map((d) => statement(d, int(r, 0, Math.floor(n * 0.5)), 0.05));
  const facts = FACTS.map((d) => statement(d, int(r, 0, Math.floor(n * 0.6)), 0.015));

  // Tools replaced over time: the old one stated now and then, the switch once, the new one after.
  const switches: SwitchTruth[] = SWITCHES.map((d) => {
    const at = Math.min(n - 1, Math.max(1, Math.round(d.at * n)));
    const first = int(r, 0, Math.floor(at / 2));
    const uses = (tool: string) => {
      const text = pick(r, CURRENT)(tool, d);
      return { text, ack: understood(text) };
    };
    const first_ = uses(d.old);
    add(first, first_.text, { ack: first_.ack });
    for (let s = first + 1; s < at; s++) if (r() < 0.1) add(s, uses(d.old).text);
    add(at, pick(r, SWITCH)(d), {
      ack: `Switching to ${d.now}: I'll move ${d.file} over from ${d.old} and check that everything still passes.`,
      files: [d.file],
      commands: [d.command],
    });
    for (let s = at + 1; s < n; s++) if (r() < 0.08) add(s, pick(r, AFTER)(d.now, d));
    return { category: d.category, old: d.old, now: d.now, at, oldRe: d.oldRe, nowRe: d.nowRe };
  });

  // Settings whose number changes once.
  const settings: SettingTruth[] = SETTINGS.map((d) => {
    for (const f of d.said) for (const v of [d.old, d.now]) if (!d.re.test(f(v))) throw new Error(`"${f(v)}" does not match ${String(d.re)}`);
    if (!d.re.test(d.change(d.old, d.now))) throw new Error(`"${d.change(d.old, d.now)}" does not match ${String(d.re)}`);
    const at = Math.min(n - 1, Math.max(1, Math.round(d.at * n)));
    const first = int(r, 0, Math.floor(at / 2));
    const say = (s: number, v: string) => {
      const text = pick(r, d.said)(v);
      add(s, text, { ack: understood(text) });
    };
    say(first, d.old);
    for (let s = first + 1; s < at; s++) if (r() < 0.04) say(s, d.old);
    add(at, d.change(d.old, d.now), { ack: `Done: the value is ${d.now} now.` });
    for (let s = at + 1; s < n; s++) if (r() < 0.04) say(s, d.now);
    return { id: d.id, re: d.re, old: d.old, now: d.now, at };
  });

  // Details of the project, each said once.
  const details: Truth['details'] = [];
  const known = new Set<string>();
  for (let s = 0; s < n; s++) {
    if (r() >= 0.5) continue;
    let text = detail(r, world);
    for (let tries = 0; known.has(text) && tries < 20; tries++) text = detail(r, world);
    if (known.has(text)) continue;
    known.add(text);
    add(s, text, { ack: understood(text) });
    details.push({ text, session: s });
  }

  // Bugs: about two sessions in five report one; most are said to be fixed 1–5 sessions later.
  const bugs: BugTruth[] = [];
  const used = new Set<string>();
  for (let s = 0; s < n; s++) {
    if (r() >= 0.4) continue;
    let component = '';
    let condition = '';
    for (let tries = 0; tries < 50; tries++) {
      component = pick(r, world.components);
      condition = pick(r, CONDITIONS);
      if (!used.has(`${component}|${condition}`)) break;
    }
    used.add(`${component}|${condition}`);
    const symptom = pick(r, SYMPTOMS);
    const file = `apps/api/src/${component.toLowerCase().replace(/\s+/g, '-')}.ts`;
    add(s, pick(r, REPORT)(component, symptom, condition), {
      ack: `Looking at the ${component} in ${file}: I'll reproduce it with a test first.`,
      files: [file, file.replace(/\.ts$/, '.test.ts')],
    });
    const fixed = r() < 0.85 ? s + int(r, 1, 5) : undefined;
    const bug: BugTruth = { id: `bug-${bugs.length}`, component, condition, reported: s };
    if (fixed !== undefined && fixed < n) {
      add(fixed, pick(r, FIXED)(component, symptom, condition), { ack: pick(r, ['Great, thanks for checking.', 'Good to hear.', 'Glad it holds.']) });
      bug.fixed = fixed;
    }
    bugs.push(bug);
  }

  const start = Date.parse(o.start ?? '2026-03-02T00:00:00.000Z');
  const sessions: GenSession[] = [];
  for (let s = 0; s < n; s++) {
    const hex = (k: number) => Array.from({ length: k }, () => '0123456789abcdef'[int(r, 0, 15)]).join('');
    const sessionId = `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    const started = new Date(start + s * DAY + (8 * 60 + int(r, 0, 240)) * 60_000).toISOString();
    const tools = current(switches, s);
    const written = writeSession(r, world, tools, planned[s] as Planned, { sessionId, cwd: o.cwd, started });
    const file = join(dir, `${String(s + 1).padStart(3, '0')}-${sessionId}.jsonl`);
    writeFileSync(file, written.text);
    sessions.push({ file, sessionId, started, messages: written.messages, userMessages: written.userMessages });
  }
  return { sessions, truth: { rules, facts, switches, settings, bugs, details } };
}

/** The tools in use at session `s`: the new one from its switch on. */
function current(switches: SwitchTruth[], s: number): Record<string, string> {
  return Object.fromEntries(switches.map((w) => [w.category, s >= w.at ? w.now : w.old]));
}

function writeSession(
  r: Rand,
  world: World,
  tools: Record<string, string>,
  planned: Planned,
  o: { sessionId: string; cwd: string; started: string },
): { text: string; messages: number; userMessages: number } {
  const cs = new ClaudeSession({ sessionId: o.sessionId, cwd: o.cwd, start: o.started });
  const target = int(r, 15, 40);
  const events = [...planned];
  let messages = 0;
  let userMessages = 0;
  let calls = 0;
  const pm = tools['package manager'] as string;
  const runner = tools['test framework'] as string;
  const linter = tools.linter as string;
  // A session has at most MAX_MESSAGES: what the planned statements still need is kept free.
  const room = () => MAX_MESSAGES - messages - events.length * 2;
  while ((messages < target && room() >= 2) || events.length > 0) {
    // The person's message: a request or question, an ack, or one of the planned statements
    // (alone, or said before or after a request, as people do).
    let text: string;
    const event = events.length > 0 && (r() < 0.5 || room() < 4 || messages + events.length * 4 >= target) ? events.shift() : undefined;
    if (event !== undefined) {
      const mix = r();
      text = mix < 0.3 ? `${sentence(event.text)} ${request(r, world)}` : mix < 0.45 ? `${sentence(request(r, world))} Also: ${event.text}` : event.text;
    } else text = messages > 0 && r() < 0.25 ? pick(r, ACKS) : request(r, world);
    cs.user(text);
    userMessages++;
    messages++;
    const path = filePath(r);
    cs.assistant(
      event?.ack ??
        pick(r, [
          `I'll start with ${path}.`,
          `Let me look at ${path} first.`,
          `Sure. The ${pick(r, world.components)} lives in ${path}; I'll change it there.`,
          `Understood.`,
          `Looking into it now.`,
        ]),
    );
    messages++;
    // What the agent does about the statement first (its files, then its commands), then other work.
    const forced: Action[] = [
      ...(event?.files ?? []).map((f, i): Action => ({ kind: i === 0 ? 'Read' : 'Edit', file: f })),
      ...(event?.commands ?? []).map((c): Action => ({ kind: 'Bash', command: c })),
    ];
    const pairs = Math.max(
      0,
      Math.min(Math.max(forced.length, int(r, 0, 3)), Math.floor((room() - 2) / 2), Math.max(forced.length, Math.ceil((target - messages) / 2))),
    );
    let failed = false;
    for (let k = 0; k < pairs; k++) {
      const id = `toolu_01${o.sessionId.slice(0, 8)}${(++calls).toString(36).padStart(4, '0')}`;
      const todo = forced[k];
      const kind = todo?.kind ?? pick(r, ['Edit', 'Edit', 'Bash', 'Bash', 'Bash', 'Read']);
      const file = `${o.cwd}/${todo?.file ?? (k === 0 ? path : filePath(r))}`;
      if (kind === 'Edit') {
        const fn = fnName(r);
        cs.toolUse(id, 'Edit', { file_path: file, old_string: `return ${fn}(ctx);`, new_string: `return await ${fn}(ctx, opts);` });
        cs.toolResult(id, `The file ${file} has been updated successfully.`);
      } else if (kind === 'Read') {
        cs.toolUse(id, 'Read', { file_path: file });
        cs.toolResult(
          id,
          `     1→import { ${fnName(r)} } from './${pick(r, V.file)}.js';\n     2→\n     3→export async function ${fnName(r)}(ctx: Context) {\n     4→  return ${int(r, 0, 9)};\n     5→}`,
        );
      } else {
        const cmd =
          todo?.command ?? pick(r, [`${pm} ${runner === 'vitest' ? 'exec vitest run' : 'test'}`, `${pm} run lint`, `${pm} run build`, 'git status --short']);
        const fail = todo === undefined && r() < 0.2;
        failed ||= fail;
        cs.toolUse(id, 'Bash', { command: cmd, description: cmd.includes('lint') ? `Run ${linter}` : 'Run it' });
        const tests = `${int(r, 20, 400)}`;
        const out = todo
          ? `${cmd.split(' ')[0]}: done (${int(r, 1, 40)}.${int(r, 0, 9)}s)`
          : cmd.startsWith('git')
            ? ` M ${path}\n?? ${filePath(r)}`
            : cmd.includes('lint')
              ? fail
                ? `${file}:${int(r, 1, 300)}:${int(r, 1, 40)}  error  ${pick(r, ['no-unused-vars', 'prefer-const', 'no-explicit-any'])}`
                : `Checked ${int(r, 40, 600)} files with ${linter}. No problems.`
              : fail
                ? `FAIL ${path.replace(/\.ts$/, '.test.ts')}\n  ✗ ${fnName(r)} > ${pick(r, ['rounds', 'retries', 'rejects', 'parses'])}\n${runner}: 1 failed, ${tests} passed`
                : `${runner}: ${tests} passed (${int(r, 1, 40)}.${int(r, 0, 9)}s)`;
        cs.toolResult(id, fail ? `Exit code 1\n${out}` : out, fail);
      }
      messages += 2;
    }
    if (room() > 0 && r() < 0.7) {
      cs.assistant(
        failed
          ? `One check failed in ${path}; I'll fix that next.`
          : pick(r, [
              `Done: I changed ${path} and the ${runner} tests pass.`,
              `Updated ${path}. ${linter} is clean.`,
              `That's in place now; ${pm} run build succeeds.`,
              `Here is what I found: ${fnName(r)} is only called from ${filePath(r)}.`,
            ]),
      );
      messages++;
    }
  }
  return { text: cs.text(), messages, userMessages };
}
