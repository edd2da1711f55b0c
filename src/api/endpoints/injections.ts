import {
  HookEvent,
  HookMeta,
  HookQuery,
  InjectResponse,
  InjectionsQuery,
  InjectionsResponse,
  PromptInjectRequest,
  RejectRequest,
  RejectResponse,
  SessionStartRequest,
  TasksSinceQuery,
  TasksSinceResponse,
  UnrejectRequest,
  UnrejectResponse,
} from '../injections.js';
import { json, memoryId, type EndpointSpec } from '../endpoint.js';

export const INJECTION_ENDPOINTS = {
  injectSessionStart: {
    doc: 'the session-start block (tasks of the project that ended since its last session, then the recall), recorded in the injection ledger once written whole to the caller',
    body: SessionStartRequest.describe('session start request'),
    reply: json(InjectResponse),
  },
  injectPrompt: {
    doc: 'what one prompt of a session gets (matching memories new to it, one line per task outcome it was not told yet), recorded in the injection ledger once written whole to the caller',
    body: PromptInjectRequest.describe('prompt inject request'),
    reply: json(InjectResponse),
  },
  hook: {
    doc: "a Claude Code or Codex hook (`session-start`, `user-prompt-submit`, `session-end`, `pre-compact`) as the agent runs it: the body is the hook input as sent (only its first 256 KiB read; a prompt cut there keeps its start), the answer the exact bytes the hook prints (empty for nothing); `timeout`: the caller's wait in ms",
    params: { event: HookEvent.describe('hook event') },
    query: HookQuery.describe('query'),
    reply: { kind: 'bytes', meta: HookMeta },
  },
  injections: {
    doc: 'the injection ledger, newest first: each injection with its items, why each was chosen and its tokens; `session`, `project`, `limit`',
    query: InjectionsQuery.describe('query'),
    reply: json(InjectionsResponse),
  },
  rejectMemory: {
    doc: 'not useful: the memory is never injected in that project again unless reinforced, and is a labelled negative for the next ranker fit',
    params: memoryId,
    body: RejectRequest.describe('reject request'),
    reply: json(RejectResponse),
  },
  unrejectMemory: {
    doc: 'undoes `rejectMemory`: the memory may be injected again in that project (`project`), or wherever it was rejected',
    params: memoryId,
    body: UnrejectRequest.describe('unreject request'),
    reply: json(UnrejectResponse),
  },
  tasksSince: {
    doc: 'tasks that ended since a time or a cursor (oldest first), each with its outcome, duration and last lines; `project`',
    query: TasksSinceQuery.describe('query'),
    reply: json(TasksSinceResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
