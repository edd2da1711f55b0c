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
  TaskListResponse,
  TaskResponse,
  WaitQuery,
  WaitResponse,
} from '../tasks.js';
import { OutputEvent } from '../ui.js';
import { z } from 'zod';
import { json, taskId, type EndpointSpec } from '../endpoint.js';

export const TASKS_ENDPOINTS = {
  listTasks: {
    doc: 'running and queued tasks (`all=1`: finished ones too); `status`, `group`, `labels`, `attention=1` filter; `order=desc` newest first; `offset`/`limit` a page of them (`total`: how many match)',
    query: ListQuery.describe('query'),
    reply: json(TaskListResponse),
  },
  runTask: {
    doc: 'start a task: command, cwd, env, name, stall time, stdin',
    body: RunRequest.describe('run request'),
    reply: json(TaskResponse, 201),
  },
  getTask: {
    doc: 'one task; an agent task with its model, context health and result',
    params: taskId,
    reply: json(TaskResponse),
  },
  removeTask: { doc: 'remove a finished task and its files', params: taskId, reply: json(OkResponse) },
  taskOutput: {
    doc: 'output bytes from `offset` (or the last `lines` lines), at most `limit` (`text=1`: in whole UTF-8 characters, at least one); where to read next in the `x-nightshift-output` header',
    params: taskId,
    query: OutputQuery.describe('output query'),
    reply: { kind: 'bytes', meta: OutputMeta },
  },
  followTask: {
    doc: 'output from `offset` as it is written, until the task has ended and all of it was sent',
    params: taskId,
    query: FollowQuery.describe('follow query'),
    reply: { kind: 'stream' },
  },
  followTaskEvents: {
    doc: 'as `follow`, as server-sent events: `output` events `{offset, text}` in whole UTF-8 characters, each with the offset after it as its id (`Last-Event-ID` resumes there), then one `end` event `{task}`',
    params: taskId,
    query: FollowQuery.describe('follow query'),
    reply: { kind: 'sse', schema: z.union([OutputEvent, TaskResponse]) },
  },
  sendInput: {
    doc: "write `text` to the task's stdin (`eof`: then close it)",
    params: taskId,
    body: InputRequest.describe('input request'),
    reply: json(TaskResponse),
  },
  killTask: {
    doc: "signal the task's process group (default SIGTERM)",
    params: taskId,
    body: KillRequest.describe('kill request'),
    reply: json(TaskResponse),
  },
  restartTask: {
    doc: "start a new task with the command, cwd, group, timeout and labels of a finished one (`restartOf` links them), in the environment given (none: the daemon's own, as a scheduled task gets)",
    params: taskId,
    body: RestartRequest.describe('restart request'),
    reply: json(TaskResponse, 201),
  },
  pauseTask: {
    doc: "stop a running task's process group (SIGSTOP) until it is resumed; it stays `running` with `paused: true`",
    params: taskId,
    reply: json(TaskResponse),
  },
  resumeTask: {
    doc: "continue a paused task's process group (SIGCONT)",
    params: taskId,
    reply: json(TaskResponse),
  },
  waitTask: {
    doc: 'long poll: answers when the task ends or `timeout` seconds pass (at most 300)',
    params: taskId,
    query: WaitQuery.describe('wait query'),
    reply: json(WaitResponse),
  },
  events: {
    doc: 'task events as they happen: queued, started, attention, exited, removed',
    reply: { kind: 'ndjson', schema: TaskEvent },
  },
} as const satisfies Record<string, EndpointSpec>;
