/**
 * The one route table: every endpoint of the daemon's API with its method, path, request schemas
 * and answer. The daemon dispatches from it, the client's calls are typed by it, and the README's
 * API section is generated from it (`npm run docs:api`).
 */
import { z } from 'zod';
import { AgentRequest } from './agent.js';
import { DreamId, DreamListResponse, DreamProgressLine, DreamRequest, DreamResponse } from './dream.js';
import {
  ImportRequest,
  ImportResponse,
  IngestRequest,
  IngestResponse,
  ListMemoriesQuery,
  MemoryId,
  MemoryListResponse,
  MemoryResponse,
  PromptRecallRequest,
  PromptRecallResponse,
  RecallRequest,
  RecallResponse,
  ReextractRequest,
  ReextractResponse,
  RememberRequest,
  SearchQuery,
  SearchResponse,
  SessionListResponse,
  SessionShowResponse,
} from './memory.js';
import { AddGroupRequest, GroupListResponse, GroupName, GroupResponse, GroupTasksResponse, SetParallelRequest } from './groups.js';
import { DoctorResponse, UsageQuery, UsageResponse } from './model-usage.js';
import { AddScheduleRequest, ScheduleListResponse, ScheduleRefParam, ScheduleResponse } from './schedules.js';
import { AddMonitorsRequest, AddMonitorsResponse, MonitorListResponse, MonitorRef, MonitorResponse } from './monitors.js';
import { ReloadResponse, StatusResponse } from './status.js';
import {
  FollowQuery,
  InputRequest,
  KillRequest,
  ListQuery,
  OkResponse,
  OutputMeta,
  OutputQuery,
  RestartRequest,
  RunRequest,
  TaskEvent,
  TaskId,
  TaskListResponse,
  TaskResponse,
  WaitQuery,
  WaitResponse,
} from './tasks.js';

/** How a successful answer travels. */
export type Reply =
  /** One JSON document (`status`: the success status when it is not 200). */
  | { kind: 'json'; schema: z.ZodTypeAny; status?: number }
  /** Raw bytes; their metadata as JSON in the `x-nightshift-output` header. */
  | { kind: 'bytes'; meta: z.ZodTypeAny }
  /** Raw bytes as they come, until there are no more. */
  | { kind: 'stream' }
  /** One JSON value per line (NDJSON) as things happen. */
  | { kind: 'ndjson'; schema: z.ZodTypeAny };

export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** `:name` segments are path parameters, each validated by `params[name]`. */
  path: string;
  /** What it does, one line (the README's API table). */
  doc: string;
  params?: Record<string, z.ZodTypeAny>;
  query?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  reply: Reply;
}

// Described copies: the description names the value in a 400 ("invalid task id: …").
const taskId = { id: TaskId.describe('task id') };
const memoryId = { id: MemoryId.describe('memory id') };
const dreamId = { id: DreamId.describe('dream id') };
const scheduleRef = { id: ScheduleRefParam.describe('schedule id or name') };
const monitorRef = { id: MonitorRef.describe('monitor id or name') };
const groupName = { name: GroupName.describe('group name') };
const json = <S extends z.ZodTypeAny, N extends number = 200>(schema: S, status?: N) => ({ kind: 'json' as const, schema, status: (status ?? 200) as N });

export const ENDPOINTS = {
  status: { method: 'GET', path: '/v1/status', doc: 'version, pid, uptime, socket, task counts, memory and dream state', reply: json(StatusResponse) },

  listTasks: {
    method: 'GET',
    path: '/v1/tasks',
    doc: 'running and queued tasks (`all=1`: finished ones too)',
    query: ListQuery.describe('query'),
    reply: json(TaskListResponse),
  },
  runTask: {
    method: 'POST',
    path: '/v1/tasks',
    doc: 'start a task: command, cwd, env, name, stall time, stdin',
    body: RunRequest.describe('run request'),
    reply: json(TaskResponse, 201),
  },
  getTask: {
    method: 'GET',
    path: '/v1/tasks/:id',
    doc: 'one task; an agent task with its model, context health and result',
    params: taskId,
    reply: json(TaskResponse),
  },
  removeTask: { method: 'DELETE', path: '/v1/tasks/:id', doc: 'remove a finished task and its files', params: taskId, reply: json(OkResponse) },
  taskOutput: {
    method: 'GET',
    path: '/v1/tasks/:id/output',
    doc: 'output bytes from `offset` (or the last `lines` lines), at most `limit` (`text=1`: in whole UTF-8 characters, at least one); where to read next in the `x-nightshift-output` header',
    params: taskId,
    query: OutputQuery.describe('output query'),
    reply: { kind: 'bytes', meta: OutputMeta },
  },
  followTask: {
    method: 'GET',
    path: '/v1/tasks/:id/follow',
    doc: 'output from `offset` as it is written, until the task has ended and all of it was sent',
    params: taskId,
    query: FollowQuery.describe('follow query'),
    reply: { kind: 'stream' },
  },
  sendInput: {
    method: 'POST',
    path: '/v1/tasks/:id/input',
    doc: "write `text` to the task's stdin (`eof`: then close it)",
    params: taskId,
    body: InputRequest.describe('input request'),
    reply: json(TaskResponse),
  },
  killTask: {
    method: 'POST',
    path: '/v1/tasks/:id/kill',
    doc: "signal the task's process group (default SIGTERM)",
    params: taskId,
    body: KillRequest.describe('kill request'),
    reply: json(TaskResponse),
  },
  restartTask: {
    method: 'POST',
    path: '/v1/tasks/:id/restart',
    doc: 'start a new task with the command, cwd, group, timeout and labels of a finished one (`restartOf` links them), in the environment given',
    params: taskId,
    body: RestartRequest.describe('restart request'),
    reply: json(TaskResponse, 201),
  },
  pauseTask: {
    method: 'POST',
    path: '/v1/tasks/:id/pause',
    doc: "stop a running task's process group (SIGSTOP) until it is resumed; it stays `running` with `paused: true`",
    params: taskId,
    reply: json(TaskResponse),
  },
  resumeTask: {
    method: 'POST',
    path: '/v1/tasks/:id/resume',
    doc: "continue a paused task's process group (SIGCONT)",
    params: taskId,
    reply: json(TaskResponse),
  },
  listGroups: { method: 'GET', path: '/v1/groups', doc: 'task groups: parallel limit, running and queued tasks', reply: json(GroupListResponse) },
  addGroup: {
    method: 'POST',
    path: '/v1/groups',
    doc: 'create a task group with a parallel limit',
    body: AddGroupRequest.describe('group request'),
    reply: json(GroupResponse, 201),
  },
  setGroupParallel: {
    method: 'POST',
    path: '/v1/groups/:name',
    doc: "change a group's parallel limit (a higher one starts queued tasks)",
    params: groupName,
    body: SetParallelRequest.describe('group request'),
    reply: json(GroupResponse),
  },
  removeGroup: {
    method: 'DELETE',
    path: '/v1/groups/:name',
    doc: 'remove a group (refused while it has tasks queued or running)',
    params: groupName,
    reply: json(OkResponse),
  },
  pauseGroup: {
    method: 'POST',
    path: '/v1/groups/:name/pause',
    doc: 'pause every running task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
  resumeGroup: {
    method: 'POST',
    path: '/v1/groups/:name/resume',
    doc: 'resume every paused task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
  waitTask: {
    method: 'GET',
    path: '/v1/tasks/:id/wait',
    doc: 'long poll: answers when the task ends or `timeout` seconds pass (at most 300)',
    params: taskId,
    query: WaitQuery.describe('wait query'),
    reply: json(WaitResponse),
  },
  events: {
    method: 'GET',
    path: '/v1/events',
    doc: 'task events as they happen: queued, started, attention, exited, removed',
    reply: { kind: 'ndjson', schema: TaskEvent },
  },

  addSchedule: {
    method: 'POST',
    path: '/v1/schedules',
    doc: 'add a schedule: a cron expression (5 fields, or 6 with seconds), time zone, overlap policy, catch-up, and the task it starts',
    body: AddScheduleRequest.describe('schedule request'),
    reply: json(ScheduleResponse, 201),
  },
  listSchedules: { method: 'GET', path: '/v1/schedules', doc: 'every schedule with its next firing times', reply: json(ScheduleListResponse) },
  getSchedule: {
    method: 'GET',
    path: '/v1/schedules/:id',
    doc: 'one schedule (id or name): next firing times, latest firings and their tasks',
    params: scheduleRef,
    reply: json(ScheduleResponse),
  },
  pauseSchedule: { method: 'POST', path: '/v1/schedules/:id/pause', doc: 'stop a schedule firing (kept)', params: scheduleRef, reply: json(ScheduleResponse) },
  resumeSchedule: {
    method: 'POST',
    path: '/v1/schedules/:id/resume',
    doc: 'let a paused schedule fire again (what it missed while paused is not caught up)',
    params: scheduleRef,
    reply: json(ScheduleResponse),
  },
  removeSchedule: {
    method: 'DELETE',
    path: '/v1/schedules/:id',
    doc: 'remove a schedule (the tasks it started stay)',
    params: scheduleRef,
    reply: json(OkResponse),
  },

  startAgent: {
    method: 'POST',
    path: '/v1/agents',
    doc: 'start an agent task, or continue a stopped one in a new task (`resume`)',
    body: AgentRequest.describe('agent request'),
    reply: json(TaskResponse, 201),
  },
  compactAgent: {
    method: 'POST',
    path: '/v1/agents/:id/compact',
    doc: 'ask a running agent task to compact its context at its next turn boundary',
    params: taskId,
    reply: json(TaskResponse),
  },

  remember: {
    method: 'POST',
    path: '/v1/memories',
    doc: 'store a memory',
    body: RememberRequest.describe('remember request'),
    reply: json(MemoryResponse, 201),
  },
  listMemories: {
    method: 'GET',
    path: '/v1/memories',
    doc: "the user's and a project's (or team's) active memories; `archived=1`: archived and superseded; `all=1`: all of them",
    query: ListMemoriesQuery.describe('query'),
    reply: json(MemoryListResponse),
  },
  importMemories: {
    method: 'POST',
    path: '/v1/memories/import',
    doc: 'add memories (duplicates are skipped)',
    body: ImportRequest.describe('import request'),
    reply: json(ImportResponse),
  },
  getMemory: { method: 'GET', path: '/v1/memories/:id', doc: 'one memory', params: memoryId, reply: json(MemoryResponse) },
  forgetMemory: { method: 'POST', path: '/v1/memories/:id/forget', doc: 'archive a memory (kept, restorable)', params: memoryId, reply: json(MemoryResponse) },
  restoreMemory: {
    method: 'POST',
    path: '/v1/memories/:id/restore',
    doc: 'bring back an archived or superseded memory',
    params: memoryId,
    reply: json(MemoryResponse),
  },
  pinMemory: {
    method: 'POST',
    path: '/v1/memories/:id/pin',
    doc: 'make a memory stable and important, never pruned',
    params: memoryId,
    reply: json(MemoryResponse),
  },
  recall: {
    method: 'POST',
    path: '/v1/recall',
    doc: 'the memories (and, with a query, past-session excerpts) that matter, within a token budget',
    body: RecallRequest.describe('recall request'),
    reply: json(RecallResponse),
  },
  recallPrompt: {
    method: 'POST',
    path: '/v1/recall/prompt',
    doc: 'what matches one prompt of a session well enough and was not injected into the session before (the UserPromptSubmit hook)',
    body: PromptRecallRequest.describe('prompt recall request'),
    reply: json(PromptRecallResponse),
  },
  search: {
    method: 'GET',
    path: '/v1/search',
    doc: 'search what was said and done in past sessions',
    query: SearchQuery.describe('search query'),
    reply: json(SearchResponse),
  },

  ingest: {
    method: 'POST',
    path: '/v1/ingest',
    doc: 'mine a transcript for memories (`wait: false`: 202 at once, ingested in the background)',
    body: IngestRequest.describe('ingest request'),
    reply: json(IngestResponse),
  },
  sessions: { method: 'GET', path: '/v1/sessions', doc: 'known sessions and how far each transcript was ingested', reply: json(SessionListResponse) },
  getSession: {
    method: 'GET',
    path: '/v1/sessions/:id',
    doc: 'one session (id, unique prefix or file key): its record, digest, and subagent and compaction sidechains',
    params: { id: z.string().min(1).max(200).describe('session id') },
    reply: json(SessionShowResponse),
  },
  reextract: {
    method: 'POST',
    path: '/v1/memories/reextract',
    doc: 'extract every session of a project again with the current extractor (what only a session gave and nobody touched is archived as replaced)',
    body: ReextractRequest.describe('reextract request'),
    reply: json(ReextractResponse),
  },

  dream: {
    method: 'POST',
    path: '/v1/dreams',
    doc: 'dream now (`dryRun`: change nothing); the report',
    body: DreamRequest.describe('dream request'),
    reply: json(DreamResponse, 201),
  },
  dreamProgress: {
    method: 'POST',
    path: '/v1/dreams/progress',
    doc: 'dream now, with a line per phase as it ends, then the report',
    body: DreamRequest.describe('dream request'),
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },
  listDreams: { method: 'GET', path: '/v1/dreams', doc: 'past dreams, newest first', reply: json(DreamListResponse) },
  getDream: {
    method: 'GET',
    path: '/v1/dreams/:id',
    doc: "one dream's report: every merge, supersession and archive (409 while it runs)",
    params: dreamId,
    reply: json(DreamResponse),
  },
  followDream: {
    method: 'GET',
    path: '/v1/dreams/:id/follow',
    doc: 'a dream as it runs: a line per phase (those already done first), then the report; at once for one that has ended',
    params: dreamId,
    reply: { kind: 'ndjson', schema: DreamProgressLine },
  },

  listMonitors: {
    method: 'GET',
    path: '/v1/monitors',
    doc: 'MCP server monitors: state, last check, latency history and its median',
    reply: json(MonitorListResponse),
  },
  addMonitors: {
    method: 'POST',
    path: '/v1/monitors',
    doc: 'monitor one MCP server configured for Claude Code or Codex (`name`), or all of them (`all`), found from `project`',
    body: AddMonitorsRequest.describe('add monitors request'),
    reply: json(AddMonitorsResponse, 201),
  },
  getMonitor: { method: 'GET', path: '/v1/monitors/:id', doc: 'one monitor (id or name)', params: monitorRef, reply: json(MonitorResponse) },
  removeMonitor: { method: 'DELETE', path: '/v1/monitors/:id', doc: 'stop monitoring a server', params: monitorRef, reply: json(MonitorResponse) },
  checkMonitor: {
    method: 'POST',
    path: '/v1/monitors/:id/check',
    doc: 'check the server now; the monitor after the check',
    params: monitorRef,
    reply: json(MonitorResponse),
  },

  reload: {
    method: 'POST',
    path: '/v1/reload',
    doc: 'read the config file again and apply it (as SIGHUP does); what changed, and what waits for a restart',
    reply: json(ReloadResponse),
  },

  usage: {
    method: 'GET',
    path: '/v1/usage',
    doc: 'model calls per day (default the last 7): calls, tokens, cost, fallbacks to the heuristics, by backend and purpose; the daily token budget',
    query: UsageQuery.describe('usage query'),
    reply: json(UsageResponse),
  },
  doctor: {
    method: 'GET',
    path: '/v1/doctor',
    doc: 'which memory extractor and dream reviewer run and why, the budget and today’s spend, the agent CLIs found',
    reply: json(DoctorResponse),
  },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;

/** The names in a path template: `/v1/tasks/:id/output` → `'id'`. */
export type PathParams<P extends string> = P extends `${string}:${infer K}/${infer Rest}`
  ? K | PathParams<`/${Rest}`>
  : P extends `${string}:${infer K}`
    ? K
    : never;

/** Endpoints by how they answer. */
export type EndpointsReplying<K extends Reply['kind']> = { [N in EndpointName]: Endpoints[N]['reply']['kind'] extends K ? N : never }[EndpointName];

/** A concrete path: the template with each parameter percent-encoded. */
export function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([a-z]+)/g, (_m, k: string) => encodeURIComponent(params[k] ?? ''));
}
