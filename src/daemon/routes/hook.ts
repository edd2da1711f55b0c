/**
 * The hooks without Node on their way: the shell entry `nightshift integrate` installs
 * (integrate/hook-entry.ts) hands over the hook's input as the agent sent it and prints this
 * answer. The daemon reads it, decides and renders the bytes the Node hook (cli/hook.ts) prints,
 * with the same code (api/hook-io.ts). It keeps to its own budget, a share of the caller's wait:
 * an answer not ready by then is empty, and nothing of it is recorded. What an answer gives the
 * session is recorded only once the answer was written whole to the caller (afterDelivery).
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { OBJ, parse as parsePartial, STR } from 'partial-json';
import { hookAnswer, hookInput, hookObject, ingestRequest, promptRequest, sessionStartRequest, type HookInput, type HookName } from '../../api/hook-io.js';
import { PromptInjectRequest, SessionStartRequest, type HookMeta } from '../../api/injections.js';
import { IngestRequest } from '../../api/memory-sessions.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { MemoryService } from '../../memory/index.js';
import type { Injector, Prepared } from '../../inject/injector.js';
import { afterDelivery, parse, readBodyPrefix, type Handlers } from '../http.js';
import { ingestTranscript } from './sessions.js';

/** Of a hook's input, what is read: a prompt's start is its query, and nothing else an agent sends comes near this. */
const KEEP_BYTES = 256 * 1024;
/** Read and dropped up to here, so the caller can finish sending and read the answer; past it the connection is cut. */
const DROP_BYTES = 64 * 1024 * 1024;
/** The caller's wait when it does not say (the Node hook's session-start default). */
const DEFAULT_TIMEOUT_MS = 1500;
/** Of the caller's wait, what the daemon may take: the rest is the way back and the caller's own start. */
const BUDGET_SHARE = 0.6;
const MIN_BUDGET_MS = 10;

const EMPTY = Buffer.alloc(0);
const nothing = (late = false): { data: Buffer; meta: HookMeta } => ({ data: EMPTY, meta: { injection: null, late } });

export interface HookDeps {
  injector: Injector;
  memory: MemoryService;
  log: Logger;
}

/** The input as JSON; one cut short is taken only for a prompt cut inside its prompt (the last field Claude Code and Codex send). */
function inputOf(data: Buffer, cut: boolean, event: HookName): HookInput {
  const text = data.toString('utf8');
  if (!cut) return hookInput(text);
  if (event !== 'user-prompt-submit') throw new AppError('payload_too_large', `${event} hook input beyond ${KEEP_BYTES} bytes`);
  let value: unknown;
  try {
    value = parsePartial(text, STR | OBJ);
  } catch {
    throw new AppError('bad_request', 'the hook input on stdin is not valid JSON');
  }
  const input = hookObject(value);
  if (Object.keys(input).at(-1) !== 'prompt') throw new AppError('bad_request', `the hook input is cut at ${KEEP_BYTES} bytes outside its prompt`);
  return input;
}

/** The hook's working directory (the shell entry's $PWD), for an input that names none; header bytes arrive as latin1. */
function callerCwd(req: IncomingMessage): string {
  const v = req.headers['x-nightshift-cwd'];
  return typeof v === 'string' ? Buffer.from(v, 'latin1').toString('utf8') : '';
}

/** The work, or undefined when it is not done within `ms` (it goes on, unrecorded). */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  work.catch(() => undefined); // a failure after the deadline has no one to tell
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function hookHandlers(d: HookDeps): Pick<Handlers, 'hook'> {
  return {
    hook: async ({ params, query, req, res }) => {
      const t0 = performance.now();
      const budget = Math.max(MIN_BUDGET_MS, (query.timeout ?? DEFAULT_TIMEOUT_MS) * BUDGET_SHARE);
      const { data, cut } = await readBodyPrefix(req, KEEP_BYTES, DROP_BYTES);
      const input = inputOf(data, cut, params.event);
      const cwd = callerCwd(req);
      let work: Promise<Prepared>;
      let event: 'SessionStart' | 'UserPromptSubmit';
      if (params.event === 'session-end' || params.event === 'pre-compact') {
        handOver(d, input, params.event);
        return nothing();
      } else if (params.event === 'session-start') {
        work = d.injector.sessionStart(parse(SessionStartRequest, sessionStartRequest(input, cwd), 'hook input'));
        event = 'SessionStart';
      } else {
        const r = promptRequest(input, cwd);
        if (!r) return nothing();
        work = d.injector.prompt(parse(PromptInjectRequest, r, 'hook input'));
        event = 'UserPromptSubmit';
      }
      const p = await within(work, budget - (performance.now() - t0));
      if (!p) {
        d.log.info({ event: params.event, budgetMs: Math.round(budget) }, 'hook answer not ready within its budget; answered nothing');
        return nothing(true);
      }
      afterDelivery(req, res, p.delivered);
      return { data: Buffer.from(hookAnswer(event, p.answer.context)), meta: { injection: p.answer.injection?.id ?? null, late: false } };
    },
  };
}

/** The session's transcript to the ingest queue, and back at once; a session that wrote none ends too (`claude mcp list`). */
function handOver(d: HookDeps, input: HookInput, event: 'session-end' | 'pre-compact'): void {
  const { path, ...rest } = ingestRequest(input, event === 'pre-compact' ? 'pre-compact' : undefined);
  if (path === undefined) return;
  try {
    ingestTranscript(d.memory, parse(IngestRequest, { path, ...rest }, 'hook input')).catch((err: unknown) =>
      d.log.warn({ path, err: (err as Error).message }, 'background ingest failed'),
    );
  } catch (err) {
    d.log.debug({ path, err: (err as Error).message }, 'session end not ingested');
  }
}
