/**
 * `nightshift agent-run --spec <task dir>/agent.json`: the process of an agent task, started by the
 * daemon under the task wrapper, so its stdout (the readable account) is the task's output.log.
 * It reads the spec, recalls the project's memories into the system prompt, builds the context
 * manager (fresh, or resumed from the checkpoint and transcript of the task it continues), runs the
 * loop, and at the end writes the result and hands the transcript to the memory ingest.
 * Exit status: 0 when the model finished the task, 1 when the run gave up (the reason is the last
 * line of the log), 2 when it could not start.
 */
import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { ApiClient } from '../client/api-client.js';
import type { AgentResult } from '../api/agent.js';
import { isErrno } from '../errors.js';
import { createAnthropic, modelConfigFromEnv } from '../llm/client.js';
import { ContextManager, loadCheckpoint, type ContextManagerOptions, type HealthReport } from './context/index.js';
import { AgentLog } from './log.js';
import { runLoop, type LoopOutcome } from './loop.js';
import { withoutSecrets } from './model-env.js';
import { agentFile, readSpec, writeJsonAtomic, type AgentSpec } from './spec.js';
import { systemPrompt } from './system.js';
import { daemonCall } from '../client/retrying.js';
import { ToolSet, type ToolContext } from './tools/index.js';
import { formatRecall } from './tools/memory.js';
import { loadTranscript, Transcript } from './transcript.js';

/** Tokens of recalled memories in the system prompt: 5 % of the window, at most 2,000. */
export const memoryBudget = (contextWindow: number): number => Math.max(50, Math.min(2000, Math.floor(contextWindow * 0.05)));

const RESUME_NOTE =
  '[This task was stopped or lost and is resumed now, in a new process. Check the state of the work (files, tasks that were running) ' +
  'before going on, then continue from where it stopped.]';

const STOP_GRACE_MS = 3000;
/** The full health line every this many turns (and at the end); each turn has its one-line figure. */
const HEALTH_LOG_EVERY = 10;

export interface RunDeps {
  log?: AgentLog;
  env?: NodeJS.ProcessEnv;
}

function modelClient(spec: AgentSpec, env: NodeJS.ProcessEnv): Anthropic | undefined {
  const cfg = modelConfigFromEnv(env);
  return cfg ? createAnthropic({ ...cfg, model: spec.model }) : undefined;
}

/** The project's memories for the task, within the budget; '' when none or the daemon cannot say. */
async function recallMemories(api: ApiClient, spec: AgentSpec, log: AgentLog): Promise<string> {
  try {
    const r = await daemonCall(() => api.recall({ project: spec.cwd, query: spec.prompt.slice(0, 2000), budget: memoryBudget(spec.contextWindow) }), true);
    const text = formatRecall(r);
    log.info(text ? `memories: ${r.items.length} recalled for the project (${r.tokens} tokens)` : 'memories: none recalled for the project');
    return text;
  } catch (err) {
    log.info(`memories: not recalled (${(err as Error).message})`);
    return '';
  }
}

async function takeCompactRequest(dir: string): Promise<boolean> {
  try {
    await unlink(agentFile(dir, 'compactRequest'));
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return false;
    throw err;
  }
}

/** A fresh manager, or one resumed from the checkpoint and the earlier transcript. */
async function buildContext(spec: AgentSpec, dir: string, opts: ContextManagerOptions, log: AgentLog): Promise<{ ctx: ContextManager; prior: number }> {
  if (!spec.resumedFrom) {
    const ctx = new ContextManager(opts);
    return { ctx, prior: 0 };
  }
  const earlier = await loadTranscript(agentFile(dir, 'resumed'));
  if (earlier.malformed > 0) log.info(`resume: ${earlier.malformed} unreadable transcript line(s) skipped`);
  const cp = await loadCheckpoint(dir);
  if (!cp.ok) log.info(`resume: the checkpoint is not usable (${cp.error.message}); continuing from the transcript alone`);
  const checkpoint = cp.ok ? cp.value : undefined;
  let r = ContextManager.resume(checkpoint, earlier.messages, opts);
  if (!r.ok && checkpoint) {
    log.info(`resume: ${r.error.message}; continuing from the transcript alone`);
    r = ContextManager.resume(undefined, earlier.messages, opts);
  }
  if (!r.ok) throw new Error(`cannot resume: ${r.error.message}`);
  log.info(
    `resumed from task ${spec.resumedFrom}: ${earlier.messages.length} earlier messages${checkpoint ? `, checkpoint v${checkpoint.version} (${checkpoint.compactions} compactions)` : ', no checkpoint'}`,
  );
  return { ctx: r.value, prior: earlier.messages.length };
}

/** The SDK warns on the console (deprecated models, on every request): once per message, in the account. */
function routeConsoleWarnings(log: AgentLog): void {
  const seen = new Set<string>();
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ').trim();
    if (!text || seen.has(text)) return;
    seen.add(text);
    log.line('!', text);
  };
}

export async function runAgentTask(specPath: string, deps: RunDeps = {}): Promise<number> {
  const log = deps.log ?? new AgentLog();
  if (!deps.log) routeConsoleWarnings(log);
  const env = deps.env ?? process.env;
  const dir = dirname(specPath);
  const spec = await readSpec(dir);
  if (!spec) {
    log.failed(`no agent spec at ${specPath}; agent-run is started by the daemon (use \`nightshift agent\`)`);
    return 2;
  }
  const writeResult = (o: LoopOutcome) =>
    writeJsonAtomic(agentFile(dir, 'result'), {
      ok: o.ok,
      code: o.code,
      message: o.message,
      summary: o.summary,
      turns: o.turns,
      endedAt: new Date().toISOString(),
      usage: o.usage,
    } satisfies AgentResult);
  const client = modelClient(spec, env);
  if (!client) {
    const message = 'no model: the run has neither ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN nor ANTHROPIC_BASE_URL in its environment';
    log.failed(message);
    await writeResult({ ok: false, code: 'model_unavailable', message, summary: '', turns: 0, usage: { input: 0, output: 0 } });
    return 2;
  }
  const api = new ApiClient({ socket: spec.socket });
  log.info(
    `agent task ${spec.taskId} · ${spec.model} · window ${spec.contextWindow.toLocaleString('en-US')} tokens (max output ${spec.maxOutputTokens.toLocaleString('en-US')}) · ${spec.cwd}` +
      (spec.parent ? ` · sub-agent of task ${spec.parent}` : ''),
  );
  log.info(`task: ${spec.prompt}`);
  const memories = await recallMemories(api, spec, log);
  const transcriptPath = agentFile(dir, 'transcript');
  const sessionId = `nightshift-agent-${spec.taskId}`;
  const ingest = (reason?: string) =>
    daemonCall(
      () => api.ingest({ path: transcriptPath, format: 'messages', project: spec.cwd, cwd: spec.cwd, sessionId, wait: false, ...(reason ? { reason } : {}) }),
      true,
    );

  const opts: ContextManagerOptions = {
    window: { contextWindow: spec.contextWindow, maxOutputTokens: spec.maxOutputTokens },
    taskDir: dir,
    taskId: spec.taskId,
    task: spec.prompt,
    ...(memories ? { memories } : {}),
    onEvent: (e) => log.context(e),
    summarize: async (r) => {
      const m = await client.messages.stream({ model: spec.model, system: r.system, messages: r.messages, max_tokens: r.maxTokens }).finalMessage();
      return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), usage: m.usage };
    },
    countTokens: async (r) =>
      (
        await client.messages.countTokens({
          model: spec.model,
          messages: r.messages,
          ...(r.system !== undefined ? { system: r.system } : {}),
          ...(r.tools ? { tools: r.tools } : {}),
        })
      ).input_tokens,
    // The compacted part is already in the transcript: ingesting it now (incrementally) keeps its memories.
    extractMemories: async () => {
      await ingest('compaction');
    },
  };
  let built: { ctx: ContextManager; prior: number };
  try {
    built = await buildContext(spec, dir, opts, log);
  } catch (err) {
    const message = (err as Error).message;
    log.failed(message);
    await writeResult({ ok: false, code: 'resume_failed', message, summary: '', turns: 0, usage: { input: 0, output: 0 } });
    return 2;
  }
  const { ctx, prior } = built;
  const transcript = new Transcript(transcriptPath, `${spec.taskId}`, prior);
  const record = (m: MessageParam) => transcript.append(m);
  const opening = spec.resumedFrom ? (spec.followUp ? `${RESUME_NOTE}\n\n${spec.followUp}` : RESUME_NOTE) : spec.prompt;
  ctx.addUser(opening);
  record({ role: 'user', content: opening });

  const toolCtx: ToolContext = {
    cwd: spec.cwd,
    taskId: spec.taskId,
    client: api,
    env: withoutSecrets(env),
    foreground: new Set(),
    model: { name: spec.model, contextWindow: spec.contextWindow, maxOutputTokens: spec.maxOutputTokens },
  };

  // Stopped (nightshift kill): the tasks it waits on in the foreground go too, the checkpoint and
  // the result are written, the transcript handed to the ingest; then the signal takes its course.
  let stopping = false;
  let iteration = 0;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.kill(process.pid, signal), STOP_GRACE_MS).unref();
    void (async () => {
      log.failed(`stopped by ${signal}; the transcript and checkpoint are kept: \`nightshift agent --resume ${spec.taskId}\` continues the task`);
      await Promise.allSettled([...toolCtx.foreground].map((id) => api.kill(id, 'SIGTERM')));
      await Promise.allSettled([
        ctx.checkpoint(),
        writeResult({ ok: false, code: 'killed', message: `stopped by ${signal}`, summary: '', turns: iteration, usage: { input: 0, output: 0 } }),
        ingest('killed'),
      ]);
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    })();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGHUP', () => stop('SIGHUP'));

  const onTurn = async (h: HealthReport): Promise<void> => {
    iteration = h.iteration;
    await writeJsonAtomic(agentFile(dir, 'health'), { at: new Date().toISOString(), ...h });
    if (h.iteration % HEALTH_LOG_EVERY === 0) log.health(h);
  };
  let outcome: LoopOutcome;
  try {
    outcome = await runLoop({
      client,
      model: spec.model,
      ctx,
      tools: ToolSet.standard({ delegate: !spec.parent }),
      toolCtx,
      system: systemPrompt({ cwd: spec.cwd, taskId: spec.taskId, ...(spec.parent ? { parent: spec.parent } : {}) }),
      log,
      record,
      maxTurns: spec.maxTurns,
      takeCompactRequest: () => takeCompactRequest(dir),
      onTurn,
      stopped: () => stopping,
    });
  } catch (err) {
    // A bug, not a condition of the run: recorded as the result, so the task can be resumed.
    const message = `internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    outcome = { ok: false, code: 'internal_error', message, summary: '', turns: iteration, usage: { input: 0, output: 0 } };
  }
  if (stopping) return new Promise<number>(() => undefined); // the signal handler ends the process
  await ctx.settle();
  const health = ctx.health();
  await writeJsonAtomic(agentFile(dir, 'health'), { at: new Date().toISOString(), ...health });
  await writeResult(outcome);
  log.health(health);
  try {
    await ingest(outcome.code);
    log.info(`session handed to the memory ingest (${transcript.count - prior} messages)`);
  } catch (err) {
    log.info(`the session could not be handed to the memory ingest: ${(err as Error).message}`);
  }
  if (outcome.ok)
    log.done(
      `done after ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'} (${outcome.usage.input.toLocaleString('en-US')} input, ${outcome.usage.output.toLocaleString('en-US')} output tokens)`,
    );
  else log.failed(`gave up after ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'}: ${outcome.code}: ${outcome.message}`);
  return outcome.ok ? 0 : 1;
}
