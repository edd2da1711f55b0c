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
    say: [
      'Anything user-facing ships behind a feature flag.',
      'Put new user-facing features behind a flag.',
      'user facing changes need a feature flag first',
    ],
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
  /** The words that name each (for telling statements apart). */
  oldRe: RegExp;
  nowRe: RegExp;
}

const SWITCHES: SwitchDef[] = [
  { category: 'test framework', old: 'jest', now: 'vitest', noun: 'test runner', purpose: 'tests', at: 0.35, oldRe: /\bjest\b/i, nowRe: /\bvitest\b/i },
  { category: 'package manager', old: 'npm', now: 'pnpm', noun: 'package manager', purpose: 'installs', at: 0.2, oldRe: /\bnpm\b/i, nowRe: /\bpnpm\b/i },
  { category: 'linter', old: 'eslint', now: 'biome', noun: 'linter', purpose: 'linting', at: 0.6, oldRe: /\beslint\b/i, nowRe: /\bbiome\b/i },
  { category: 'database', old: 'MySQL', now: 'Postgres', noun: 'database', purpose: 'the main database', at: 0.45, oldRe: /\bmysql\b/i, nowRe: /\bpostgres\b/i },
  { category: 'deploy target', old: 'Heroku', now: 'Railway', noun: 'hosting', purpose: 'deploys', at: 0.7, oldRe: /\bheroku\b/i, nowRe: /\brailway\b/i },
  { category: 'orm', old: 'Sequelize', now: 'Prisma', noun: 'ORM', purpose: 'database access', at: 0.55, oldRe: /\bsequelize\b/i, nowRe: /\bprisma\b/i },
  {
    category: 'ci',
    old: 'CircleCI',
    now: 'GitHub Actions',
    noun: 'CI',
    purpose: 'CI',
    at: 0.3,
    oldRe: /\bcircleci\b/i,
    nowRe: /\bgithub actions\b/i,
  },
  { category: 'dates', old: 'moment', now: 'date-fns', noun: 'date library', purpose: 'date handling', at: 0.5, oldRe: /\bmoment\b/i, nowRe: /\bdate-fns\b/i },
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
const AFTER = [...CURRENT, (t: string, s: SwitchDef) => `${cap(t)} is the ${s.noun} now, not ${s.old}.`, (t: string, s: SwitchDef) => `we're fully on ${t} for ${s.purpose} now`];

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

const FN_A = ['get', 'load', 'save', 'parse', 'render', 'compute', 'build', 'apply', 'resolve', 'handle', 'fetch', 'sync', 'format', 'check', 'merge', 'queue'];
const FN_B = ['Invoice', 'User', 'Session', 'Order', 'Price', 'Tax', 'Token', 'Cart', 'Route', 'Coupon', 'Refund', 'Report', 'Account', 'Payment', 'Shipment'];
const FN_C = ['', 'ById', 'Batch', 'Async', 'Total', 'Items', 'State', 'Options', 'Result', 'Rows'];
const COLUMNS = ['user_id', 'created_at', 'invoice_id', 'account_id', 'order_id', 'sku', 'status', 'updated_at'];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const fnName = (r: Rand) => pick(r, FN_A) + pick(r, FN_B) + pick(r, FN_C);
const filePath = (r: Rand) => `${pick(r, ['apps/api/src', 'apps/admin/src', 'packages/core/src', 'packages/web/src', 'scripts', 'apps/worker/src'])}/${pick(r, V.file)}.ts`;

/** A one-off request or a question: what most of a person's messages are, gone by the next session. */
function request(r: Rand, w: World): string {
  const c = pick(r, w.components);
  const svc = pick(r, w.services);
  return pick(r, [
    () => `add a retry to the ${c}`,
    () => `Add retries with backoff to the ${c} in the ${svc} service.`,
    () => `make the ${c} timeout configurable`,
    () => `rename ${fnName(r)} to ${fnName(r)}`,
    () => `bump ${pick(r, V.lib)} to ${int(r, 1, 9)}.${int(r, 0, 20)}`,
    () => `add logging around ${fnName(r)} in ${filePath(r)}`,
    () => `Can you split ${filePath(r)} into smaller files?`,
    () => `write a unit test for ${fnName(r)}`,
    () => `clean up the unused imports in ${filePath(r)}`,
    () => `add pagination to the ${svc} list endpoint`,
    () => `move ${fnName(r)} into ${filePath(r)}`,
    () => `the ${svc} README is out of date, please update it`,
    () => `add an index on ${pick(r, COLUMNS)}`,
    () => `profile the ${c}, it feels slow today`,
    () => `add a --dry-run flag to the ${svc} sync script`,
    () => `Remove the dead code in ${filePath(r)}.`,
    () => `port ${fnName(r)} to async/await`,
    () => `why does the ${svc} build fail on CI?`,
    () => `what does ${fnName(r)} actually do?`,
    () => `where is the ${c} configured?`,
    () => `Is the ${c} covered by tests?`,
    () => `how do we seed the local database for the ${svc} service?`,
    () => `what's the difference between ${fnName(r)} and ${fnName(r)}?`,
    () => `can you explain how the ${c} works?`,
    () => `for now skip the flaky ${c} test, I'll look at it later`,
    () => `let's try caching the ${svc} lookups in memory for this PR`,
  ])();
}

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
export interface Truth {
  rules: StatementTruth[];
  facts: StatementTruth[];
  switches: SwitchTruth[];
  bugs: BugTruth[];
}

export interface GenSession {
  file: string;
  sessionId: string;
  started: string;
  messages: number;
  userMessages: number;
}

/** Statements the schedule puts in one session, each to be typed by the person. */
type Planned = { text: string }[];

/** Writes `count` sessions into `dir` (a file each) for a project whose working directory is `cwd`. */
export function generateSessions(dir: string, o: { count: number; cwd: string; seed: number; start?: string }): { sessions: GenSession[]; truth: Truth } {
  const r = rng(o.seed);
  const n = o.count;
  const shuffled = <T>(xs: readonly T[]) => [...xs].map((x) => ({ x, k: r() })).sort((a, b) => a.k - b.k).map((e) => e.x);
  const world: World = { services: shuffled(V.service).slice(0, 8), components: shuffled(V.component).slice(0, 16) };
  const planned: Planned[] = Array.from({ length: n }, () => []);
  const add = (s: number, text: string) => (planned[s] as Planned).push({ text });
  for (const d of [...RULES, ...FACTS]) for (const s of d.say) if (!d.re.test(s)) throw new Error(`phrasing "${s}" does not match ${String(d.re)}`);

  // Standing rules: introduced in the first half, restated now and then in other words.
  const statement = (d: RuleDef, from: number, p: number): StatementTruth => {
    const t: StatementTruth = { id: d.id, re: d.re, user: d.user === true, said: [] };
    let last = -1;
    const say = (s: number) => {
      let k = int(r, 0, d.say.length - 1);
      if (k === last) k = (k + 1) % d.say.length;
      last = k;
      add(s, d.say[k] as string);
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
    add(first, (pick(r, CURRENT) as (t: string, s: SwitchDef) => string)(d.old, d));
    for (let s = first + 1; s < at; s++) if (r() < 0.1) add(s, pick(r, CURRENT)(d.old, d));
    add(at, pick(r, SWITCH)(d));
    for (let s = at + 1; s < n; s++) if (r() < 0.08) add(s, pick(r, AFTER)(d.now, d));
    return { category: d.category, old: d.old, now: d.now, at, oldRe: d.oldRe, nowRe: d.nowRe };
  });

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
    add(s, pick(r, REPORT)(component, symptom, condition));
    const fixed = r() < 0.85 ? s + int(r, 1, 5) : undefined;
    const bug: BugTruth = { id: `bug-${bugs.length}`, component, condition, reported: s };
    if (fixed !== undefined && fixed < n) {
      add(fixed, pick(r, FIXED)(component, symptom, condition));
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
  return { sessions, truth: { rules, facts, switches, bugs } };
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
  while (messages < target || events.length > 0) {
    // The person's message: a request or question, an ack, or one of the planned statements
    // (alone, or said before or after a request, as people do).
    let text: string;
    const event = events.length > 0 && (r() < 0.5 || messages + events.length * 4 >= target) ? events.shift()?.text : undefined;
    if (event !== undefined) {
      const with_ = r();
      text = with_ < 0.3 ? `${event} ${request(r, world)}` : with_ < 0.45 ? `${request(r, world)}. Also: ${event}` : event;
    } else text = messages > 0 && r() < 0.25 ? pick(r, ACKS) : request(r, world);
    cs.user(text);
    userMessages++;
    messages++;
    const path = filePath(r);
    cs.assistant(
      pick(r, [
        `I'll start with ${path}.`,
        `Let me look at ${path} first.`,
        `Sure. The ${pick(r, world.components)} lives in ${path}; I'll change it there.`,
        `Understood.`,
        `Looking into it now.`,
      ]),
    );
    messages++;
    const pairs = messages + 2 >= target && events.length === 0 ? 0 : int(r, 0, 3);
    let failed = false;
    for (let k = 0; k < pairs; k++) {
      const id = `toolu_01${o.sessionId.slice(0, 8)}${(++calls).toString(36).padStart(4, '0')}`;
      const kind = pick(r, ['Edit', 'Edit', 'Bash', 'Bash', 'Bash', 'Read']);
      const file = `${o.cwd}/${k === 0 ? path : filePath(r)}`;
      if (kind === 'Edit') {
        const fn = fnName(r);
        cs.toolUse(id, 'Edit', { file_path: file, old_string: `return ${fn}(ctx);`, new_string: `return await ${fn}(ctx, opts);` });
        cs.toolResult(id, `The file ${file} has been updated successfully.`);
      } else if (kind === 'Read') {
        cs.toolUse(id, 'Read', { file_path: file });
        cs.toolResult(id, `     1→import { ${fnName(r)} } from './${pick(r, V.file)}.js';\n     2→\n     3→export async function ${fnName(r)}(ctx: Context) {\n     4→  return ${int(r, 0, 9)};\n     5→}`);
      } else {
        const cmd = pick(r, [`${pm} ${runner === 'vitest' ? 'exec vitest run' : 'test'}`, `${pm} run lint`, `${pm} run build`, 'git status --short']);
        const fail = r() < 0.2;
        failed ||= fail;
        cs.toolUse(id, 'Bash', { command: cmd, description: cmd.includes('lint') ? `Run ${linter}` : 'Run it' });
        const tests = `${int(r, 20, 400)}`;
        const out = cmd.startsWith('git')
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
    if (r() < 0.7) {
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
