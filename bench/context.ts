/**
 * Context management over a long session: a scripted 200-turn agent task (fake model on the fake
 * Messages server, real SDK, streaming) with tool outputs of 1–40 KB in a 64K window.
 *
 * Measured: requests over the window (the fake refuses them as the API would: zero allowed); input
 * tokens sent in all (main requests, retries and summary requests, as the fake counts them:
 * JSON length / 4) against replaying the full, unmanaged history on every turn; compactions; and
 * fidelity: a decision, an exact error message and a file path planted in the first turns, plus the
 * task statement, must still be in the last request, after the last compaction.
 *
 * What the fake does, honestly: the main model follows a fixed script (it never reads the context).
 * The summariser is extractive, not a model: from the request it is sent it copies the goal, the
 * sections of the previous summary, lines starting "Decision:" in assistant text, lines starting
 * "Error:" in tool results and the paths given to edit_file, and counts the tool calls. So fidelity
 * here measures what the manager passes on (the summary request's content, the task kept verbatim,
 * the notes re-injected, the newest turns kept), not how well a real model summarises.
 */
import { performance } from 'node:perf_hooks';
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, MessageCreateParamsBase, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { COMPACT_SYSTEM, ContextManager, NOTES_TOOL, NOTES_TOOL_NAME, type ContextEvent } from '../src/agent/context/index.js';
import { fakeEstimate, promptTooLong, reply, startFakeAnthropic, text, toolUse, type FakeStep, type RecordedRequest } from '../test/fakes/anthropic.js';
import { defer, tempDir } from './lib/cleanup.js';
import { fmt } from './lib/stats.js';
import { atLeast, atMost, info, type Bench, type Figure } from './lib/types.js';

const WINDOW = { contextWindow: 64_000, maxOutputTokens: 8_192 };
const SYSTEM = 'You are nightshift, a coding agent. Work in small steps; use the tools; keep notes of decisions.';
const TASK = 'Migrate the order importer in src/orders/ from loading whole CSV files to streaming them. Constraints: keep Node 20 support; add no new runtime dependency except csv-parse; every existing test must still pass.';
const DECISION = 'stream rows with csv-parse instead of reading the file whole, because the fixtures reach 2 GB';
const ERROR = "Error: ENOENT: no such file or directory, open '/srv/data/fixtures/orders-2024-03.csv'";
const PATH = 'src/orders/stream-import.ts';

const schema = (props: Record<string, string>) => ({ type: 'object' as const, properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])) });
const TOOLS: ToolUnion[] = [
  { name: 'read_file', description: 'Read a file (offset/limit in lines for large ones)', input_schema: schema({ path: 'file path', offset: 'first line', limit: 'lines' }) },
  { name: 'grep', description: 'Search the repository', input_schema: schema({ pattern: 'regex' }) },
  { name: 'bash', description: 'Run a shell command', input_schema: schema({ command: 'command' }) },
  { name: 'edit_file', description: 'Replace text in a file', input_schema: schema({ path: 'file path', old: 'old text', new: 'new text' }) },
  NOTES_TOOL,
];

/** mulberry32: the same session on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Call = { name: string; input: Record<string, unknown>; say: string };

/** The script: turn → the model's tool call. Early turns plant the facts; the rest is busywork. */
function scriptedCall(turn: number, r: () => number): Call {
  if (turn === 1) return { name: 'read_file', input: { path: 'src/orders/import.ts' }, say: 'Reading the importer.' };
  if (turn === 2) return { name: 'grep', input: { pattern: 'readFileSync' }, say: 'Looking for whole-file reads.' };
  if (turn === 3) return { name: NOTES_TOOL_NAME, input: { action: 'add', section: 'decisions', text: DECISION }, say: `Decision: ${DECISION}.` };
  if (turn === 4) return { name: 'edit_file', input: { path: PATH, old: '', new: 'export async function* rows() {}' }, say: 'Creating the streaming importer.' };
  if (turn === 5) return { name: 'bash', input: { command: 'npm test -- orders' }, say: 'Running the order tests.' };
  const k = r();
  if (k < 0.45) return { name: 'read_file', input: { path: `src/orders/m${Math.floor(r() * 40)}.ts` }, say: 'Reading another module.' };
  if (k < 0.65) return { name: 'grep', input: { pattern: `symbol${Math.floor(r() * 500)}` }, say: 'Searching.' };
  if (k < 0.9) return { name: 'bash', input: { command: `npm test -- part${turn}` }, say: 'Running tests.' };
  return { name: 'edit_file', input: { path: `src/orders/m${Math.floor(r() * 40)}.ts`, old: 'readFileSync', new: 'createReadStream' }, say: 'Editing.' };
}

/** Tool output of `bytes` bytes that looks like what the tool would print. */
function output(call: Call, turn: number, bytes: number): string {
  if (turn === 5) return `${'  ✓ orders/parse.test.ts > parses a row\n'.repeat(150)}  ✗ orders/import.test.ts > imports March\n${ERROR}\n    at open (node:fs/promises:639:25)\n`;
  const line =
    call.name === 'read_file' ? `export function step${turn}(row: Row): Row { return normalise(row, ${turn}); }\n`
    : call.name === 'grep' ? `src/orders/m${turn % 40}.ts:${turn}: const data = readFileSync(path, 'utf8');\n`
    : `  ✓ orders/m${turn % 40}.test.ts > case ${turn} passes in ${turn % 97} ms\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

const blocksOf = (m: MessageParam): ContentBlockParam[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);

/** The extractive fake summariser (see the header). */
export function fakeSummary(body: MessageCreateParamsBase): string {
  const decisions = new Set<string>();
  const errors = new Set<string>();
  const files = new Set<string>();
  let goal = '';
  let calls = 0;
  let last = '';
  const carry = (summary: string) => {
    let section = '';
    for (const line of summary.split('\n')) {
      if (line.startsWith('## ')) section = line.slice(3);
      else if (line.startsWith('- ')) {
        const item = line.slice(2);
        if (section === 'Decisions') decisions.add(item);
        if (section === 'Errors') errors.add(item);
        if (section === 'Files') files.add(item);
        const done = /^(\d+) tool calls/.exec(item);
        if (section === 'Done' && done) calls += Number(done[1]);
      }
    }
  };
  for (const m of body.messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text') {
        const task = /<task>\n([\s\S]*?)\n<\/task>/.exec(b.text);
        if (task) goal ||= task[1] ?? '';
        const summary = /<summary>\n([\s\S]*?)\n<\/summary>/.exec(b.text);
        if (summary) carry(summary[1] ?? '');
        if (m.role === 'user' && !goal && !b.text.startsWith('[context')) goal = b.text;
        for (const line of b.text.split('\n')) if (m.role === 'assistant' && line.startsWith('Decision: ')) decisions.add(line.slice(10).replace(/\.$/, ''));
      } else if (b.type === 'tool_use') {
        calls++;
        last = `${b.name} ${JSON.stringify(b.input)}`;
        const input = b.input as { path?: unknown };
        if (b.name === 'edit_file' && typeof input.path === 'string') files.add(input.path);
      } else if (b.type === 'tool_result') {
        const t = typeof b.content === 'string' ? b.content : (b.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('\n');
        for (const line of t.split('\n')) if (/^\w*Error: /.test(line)) errors.add(line);
      }
    }
  }
  const list = (s: Set<string>) => (s.size ? [...s].map((x) => `- ${x}`).join('\n') : '- (none)');
  return [
    '<analysis>Extractive fake summariser: copies facts, reasons about nothing.</analysis>',
    '<summary>',
    `## Goal\n${goal}`,
    `## Done\n- ${calls} tool calls so far`,
    `## Current\n${last}`,
    '## Remaining\n- continue the migration',
    `## Decisions\n${list(decisions)}`,
    `## Errors\n${list(errors)}`,
    `## Files\n${list(files)}`,
    '## Next step\nContinue with the next module.',
    '</summary>',
  ].join('\n');
}

/** chars of a message as JSON, for the full-history baseline (computed incrementally). */
const jsonLen = (x: unknown): number => JSON.stringify(x).length;

interface SessionResult {
  outcome: string;
  turns: number;
  requests: number;
  countCalls: number;
  overWindow: number;
  /** Largest input + max_tokens, as a fraction of the window. */
  largest: number;
  sent: number;
  summarySent: number;
  baseline: number;
  compactions: Array<{ before: number; after: number }>;
  retried: number;
  fidelity: { decision: number; error: number; path: number; goal: number };
  where: string;
  tiers: string;
  persisted: number;
  managerMs: number;
}

/**
 * One scripted session. `density`: model tokens per chars/4 token as the fake counts them (usage,
 * count_tokens, the window check): 1 = the fake's JSON/4; 1.3 = a tokenizer denser than chars/4,
 * which only the anchoring on usage (and the exact counts) can notice. `anchored: false` is the
 * control: the loop passes no usage and no count_tokens, so the manager has only chars/4 (and what
 * "prompt is too long" errors tell it).
 */
async function session(turns: number, density: number, anchored = true): Promise<SessionResult> {
  const r = rng(20_260_522);
  const work = tempDir('ns-bench-context-');
  const counted = (body: MessageCreateParamsBase) => Math.ceil(fakeEstimate(body) * density);
  let main = 0;
  let overWindow = 0;
  const step: FakeStep = (req: RecordedRequest) => {
    const input = counted(req.body);
    if (input + req.body.max_tokens > WINDOW.contextWindow) {
      overWindow++;
      return promptTooLong(input, WINDOW.contextWindow - req.body.max_tokens);
    }
    const usage = { input_tokens: input };
    if (req.body.system === COMPACT_SYSTEM) return reply(fakeSummary(req.body), { usage });
    main++;
    if (main > turns) return reply('The importer now streams; all order tests pass.', { usage });
    const c = scriptedCall(main, r);
    return reply([text(c.say), toolUse(c.name, c.input)], { usage });
  };
  const fake = await startFakeAnthropic({ defaultStep: step, countTokens: (q) => counted(q.body) });
  const undo = defer(() => fake.close());
  const client = new Anthropic({ apiKey: 'bench', baseURL: fake.url, maxRetries: 0 });
  const events: ContextEvent[] = [];
  let summarizeMs = 0;
  const ctx = new ContextManager({
    window: WINDOW,
    taskDir: work.dir,
    taskId: 'bench',
    onEvent: (e) => events.push(e),
    summarize: async (s) => {
      const t0 = performance.now();
      const m = await client.messages.stream({ model: 'fake', system: s.system, messages: s.messages, max_tokens: s.maxTokens }).finalMessage();
      summarizeMs += performance.now() - t0;
      return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), usage: m.usage };
    },
    ...(anchored
      ? { countTokens: async (q) => (await client.messages.countTokens({ model: 'fake', messages: q.messages, ...(q.system ? { system: q.system } : {}), ...(q.tools ? { tools: q.tools } : {}) })).input_tokens }
      : {}),
  });
  // Baseline: the same session replayed in full (raw outputs, nothing cleared) on every turn.
  const fixedChars = jsonLen(SYSTEM) + jsonLen(TOOLS);
  let rawChars = 2; // "[]"
  let rawCount = 0;
  const addRaw = (m: MessageParam) => {
    rawChars += jsonLen(m) + (rawCount++ > 0 ? 1 : 0);
  };
  let baseline = 0;
  let prepareMs = 0;
  let outcome = 'did not finish';
  let lastMessages: MessageParam[] = [];
  try {
    ctx.addUser(TASK);
    addRaw({ role: 'user', content: TASK });
    const sizes = rng(7);
    for (let n = 0; n < turns * 2 + 20; n++) {
      const t0 = performance.now();
      const prepared = await ctx.prepareRequest({ system: SYSTEM, tools: TOOLS });
      prepareMs += performance.now() - t0;
      if (!prepared.ok) {
        outcome = prepared.error.code;
        break;
      }
      const p = prepared.value;
      let msg: Message;
      try {
        msg = await client.messages.stream({ model: 'fake', system: p.system, tools: p.tools, messages: p.messages, max_tokens: p.maxTokens }).finalMessage();
      } catch (err) {
        const d = await ctx.onOverflow(err);
        if (d.action === 'retry') continue;
        outcome = d.action === 'give_up' ? `gave up: ${d.error.message}` : String(err);
        break;
      }
      baseline += Math.ceil(((fixedChars + rawChars) / 4) * density);
      lastMessages = p.messages;
      ctx.addAssistant(msg.content, anchored ? msg.usage : undefined);
      addRaw({ role: 'assistant', content: msg.content });
      const uses = msg.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
      if (uses.length === 0) {
        outcome = 'finished';
        break;
      }
      const results = uses.map((u) => {
        if (u.name === NOTES_TOOL_NAME) return { tool_use_id: u.id, ...ctx.notes.handle(u.input) };
        const bytes = Math.round(1024 + sizes() * 39 * 1024);
        return { tool_use_id: u.id, content: output({ name: u.name, input: {}, say: '' }, main, bytes) };
      });
      addRaw({ role: 'user', content: results.map((x) => ({ type: 'tool_result', ...x })) });
      await ctx.addToolResults(results);
    }
  } finally {
    await fake.close();
    undo();
    work.remove();
  }
  const lastJson = JSON.stringify(lastMessages);
  const summaryPart = /<summary>[\s\S]*?<\/summary>/.exec(lastJson)?.[0] ?? '';
  const notesPart = /<notes>[\s\S]*?<\/notes>/.exec(lastJson)?.[0] ?? '';
  const has = (s: string) => (lastJson.includes(JSON.stringify(s).slice(1, -1)) ? 1 : 0);
  const yes = (b: boolean) => (b ? 'yes' : 'no');
  const h = ctx.health();
  const compactions = events.flatMap((e) => (e.type === 'compaction' && e.ok ? [{ before: e.beforeTokens, after: e.afterTokens ?? 0 }] : []));
  return {
    outcome,
    turns: main,
    requests: fake.requests.length,
    countCalls: fake.countTokensCalls.length,
    overWindow,
    largest: Math.max(...fake.requests.map((q) => counted(q.body) + q.body.max_tokens)) / WINDOW.contextWindow,
    sent: fake.requests.reduce((n, q) => n + counted(q.body), 0),
    summarySent: fake.requests.filter((q) => q.body.system === COMPACT_SYSTEM).reduce((n, q) => n + counted(q.body), 0),
    baseline,
    compactions,
    retried: events.filter((e) => e.type === 'overflow' && e.action === 'retry').length,
    fidelity: { decision: has(DECISION), error: has(ERROR), path: has(PATH), goal: has(`<task>\n${TASK}\n</task>`) },
    where: `decision in <summary> ${yes(summaryPart.includes(DECISION))}, in <notes> ${yes(notesPart.includes(DECISION))}; error in <summary> ${yes(summaryPart.includes(ERROR))}; path in <summary> ${yes(summaryPart.includes(PATH))}`,
    tiers: Object.entries(h.tiers).map(([k, v]) => `${k} ${v}`).join(', '),
    persisted: events.filter((e) => e.type === 'persisted').length,
    managerMs: (prepareMs - summarizeMs) / Math.max(1, main),
  };
}

export const contextBench: Bench = {
  name: 'context',
  title: 'Context management: scripted 200-turn session, tool outputs 1–40 KB, 64K window (fake model)',
  budgetSeconds: 180,
  async run(o, say) {
    const turns = o.quick ? 60 : 200;
    const figures: Figure[] = [];
    for (const density of [1, 1.3]) {
      const s = await session(turns, density);
      const tag = density === 1 ? '' : ` [model counts ${density}× chars/4]`;
      say(`density ${density}: ${s.outcome} after ${s.turns} scripted turns; ${s.requests} requests, ${s.countCalls} count_tokens calls; ${s.compactions.length} compactions (${s.compactions.slice(0, 4).map((c) => `${fmt(c.before / 1000)}K→${fmt(c.after / 1000)}K`).join(' ')} …)`);
      say(`  tier blocks over the task: ${s.tiers}; outputs saved to disk ${s.persisted}; last request: ${s.where}`);
      const f = s.fidelity;
      figures.push(
        atMost(`requests over the 64K window${tag}`, s.overWindow, '', 0),
        info(`largest request, input + max_tokens${tag}`, s.largest * 100, '% of window'),
        atMost(`input tokens sent / full-history replay${tag}`, s.sent / s.baseline, '', 0.35),
        info(`input tokens sent: main, retries, summaries${tag}`, s.sent / 1e6, 'M tokens', `summaries ${fmt(s.summarySent / 1e6)} M; replay ${fmt(s.baseline / 1e6)} M`),
        info(`compactions${tag}`, s.compactions.length, '', `${s.retried} overflow(s) retried`),
        atLeast(`fidelity after the last compaction: decision, error, path, task${tag}`, f.decision + f.error + f.path + f.goal, 'of 4', 4),
      );
      if (density === 1) figures.push(info('manager time per request (prepareRequest, excl. summary calls)', s.managerMs, 'ms'));
    }
    const control = await session(turns, 1.3, false);
    say(`control, 1.3× without usage or count_tokens (chars/4 alone): ${control.outcome}; ${control.overWindow} requests refused as too long, ${control.retried} retried after a reactive compaction`);
    figures.push(info('control [1.3×, no usage anchoring, no count_tokens]: requests refused', control.overWindow, '', `${control.retried} retried; outcome ${control.outcome.slice(0, 40)}`));
    say('fake model: scripted calls; fake summariser: extractive (copies goal, previous summary, Decision:/Error: lines, edited paths)');
    return figures;
  },
};
