/**
 * The typed client of the daemon API: a method per command over ApiCaller's calls by route name
 * (api-call.ts), each answer checked against the zod schema the daemon answers with.
 */
import type { IncomingMessage } from 'node:http';
import type { AgentRequest } from '../api/agent.js';
import type { DreamReport } from '../api/dream.js';
import type { Group } from '../api/groups.js';
import { ENDPOINTS, type Endpoints } from '../api/endpoints.js';
import type { ImportLine, Memory } from '../api/memory.js';
// Tasks as the daemon answers them: state and outcome with the flat status beside them.
import type { OutputMeta, SignalName, TaskJson as Task, TaskEvent, TaskStatus } from '../api/tasks.js';
import { AppError, type ErrorCode } from '../errors.js';
import { ApiCaller, type Input } from './api-call.js';
import { checkStatus, readAll, readLines } from './http.js';

export type { DaemonAddress } from './http.js';
export type { Answer, CallInput, ClientOptions } from './api-call.js';

const id = (taskOrMemory: string) => ({ params: { id: taskOrMemory } });

export class ApiClient extends ApiCaller {
  status() {
    return this.call('status', {});
  }

  // ── tasks ──

  async run(req: Input<Endpoints['runTask']['body']>): Promise<Task> {
    return (await this.call('runTask', { body: req })).task;
  }

  /** Running and queued tasks (`all`: finished too); `group`, `status`: only those. */
  async list(all = false, filter: { group?: string; status?: TaskStatus | 'finished'; labels?: Record<string, string> } = {}): Promise<Task[]> {
    const { labels, ...rest } = filter;
    return (await this.call('listTasks', { query: { all: all ? 1 : 0, ...rest, ...(labels ? { labels: JSON.stringify(labels) } : {}) } })).tasks;
  }

  /** A new run of a finished task, in environment `env`. */
  async restart(taskId: string, env: Record<string, string>): Promise<Task> {
    return (await this.call('restartTask', { ...id(taskId), body: { env } })).task;
  }

  async pause(taskId: string): Promise<Task> {
    return (await this.call('pauseTask', id(taskId))).task;
  }

  async resume(taskId: string): Promise<Task> {
    return (await this.call('resumeTask', id(taskId))).task;
  }

  // ── groups ──

  async groups(): Promise<Group[]> {
    return (await this.call('listGroups', {})).groups;
  }

  async addGroup(name: string, parallel: number): Promise<Group> {
    return (await this.call('addGroup', { body: { name, parallel } })).group;
  }

  async setGroupParallel(name: string, parallel: number): Promise<Group> {
    return (await this.call('setGroupParallel', { params: { name }, body: { parallel } })).group;
  }

  async removeGroup(name: string): Promise<void> {
    await this.call('removeGroup', { params: { name } });
  }

  /** Pauses (or resumes) every running task of the group; the ids it acted on. */
  async pauseGroup(name: string, resume = false): Promise<string[]> {
    return (await this.call(resume ? 'resumeGroup' : 'pauseGroup', { params: { name } })).ids;
  }

  async get(taskId: string): Promise<Task> {
    return (await this.call('getTask', id(taskId))).task;
  }

  async remove(taskId: string): Promise<void> {
    await this.call('removeTask', id(taskId));
  }

  async input(taskId: string, text: string, eof = false): Promise<Task> {
    return (await this.call('sendInput', { ...id(taskId), body: { text, eof } })).task;
  }

  async kill(taskId: string, signal: SignalName | string = 'SIGTERM'): Promise<Task> {
    return (await this.call('killTask', { ...id(taskId), body: { signal } })).task;
  }

  /** Long-polls until the task ends or `timeoutSeconds` pass (the daemon caps one poll at 5 min). */
  wait(taskId: string, timeoutSeconds?: number) {
    return this.call('waitTask', { ...id(taskId), query: { timeout: timeoutSeconds } });
  }

  /**
   * Raw output bytes from an offset (or the last `lines` lines), with where to read next. `text`:
   * in whole UTF-8 characters (starts on one, holds at least one, never ends in half of one).
   */
  async output(taskId: string, q: { offset?: number; limit?: number; lines?: number; text?: boolean } = {}): Promise<{ data: Buffer; meta: OutputMeta }> {
    const { text, ...rest } = q;
    const res = await this.open('taskOutput', { ...id(taskId), query: { ...rest, ...(text ? { text: '1' } : {}) } });
    await checkStatus(res);
    const data = await readAll(res);
    const meta = ENDPOINTS.taskOutput.reply.meta.parse(JSON.parse(String(res.headers['x-nightshift-output'] ?? '{}')));
    return { data, meta };
  }

  /** Streams output from `offset` until the task has ended and all of it was delivered. */
  async follow(taskId: string, offset: number, onData: (chunk: Buffer) => void, signal?: AbortSignal): Promise<number> {
    const res = await this.open('followTask', { ...id(taskId), query: { offset } }, signal);
    await checkStatus(res);
    let at = offset;
    await new Promise<void>((resolve, reject) => {
      res.on('data', (c: Buffer) => {
        at += c.length;
        onData(c);
      });
      res.on('end', resolve);
      // A daemon that dies mid-stream resets the connection: the caller resumes from the bytes it got.
      res.on('error', (err) => reject(new AppError('connection_lost', `the follow stream broke: ${err.message}`)));
      res.on('aborted', () => reject(new AppError('connection_lost', 'the daemon closed the stream')));
    });
    return at;
  }

  /** Calls onEvent for every task event until the stream ends or `signal` aborts. */
  async events(onEvent: (e: TaskEvent) => void, signal?: AbortSignal): Promise<void> {
    const res = await this.open('events', {}, signal);
    await checkStatus(res);
    await readLines(res, (line) => onEvent(ENDPOINTS.events.reply.schema.parse(JSON.parse(line))));
  }

  // ── agent tasks ──

  /** Starts an agent task (refused at once with model_unavailable when the daemon has no model). */
  async agent(req: AgentRequest): Promise<Task> {
    return (await this.call('startAgent', { body: req })).task;
  }

  /** Asks a running agent task to compact its context at its next turn boundary. */
  async compact(taskId: string): Promise<Task> {
    return (await this.call('compactAgent', id(taskId))).task;
  }

  // ── memories ──

  async remember(req: Input<Endpoints['remember']['body']>): Promise<Memory> {
    return (await this.call('remember', { body: req })).memory;
  }

  async memories(q: { project?: string; team?: string; archived?: boolean; all?: boolean } = {}): Promise<Memory[]> {
    const query = { project: q.project, team: q.team, archived: q.archived ? '1' : undefined, all: q.all ? '1' : undefined };
    return (await this.call('listMemories', { query })).memories;
  }

  async memory(memoryId: string): Promise<Memory> {
    return (await this.call('getMemory', id(memoryId))).memory;
  }

  /** `forget` archives, `restore` brings back an archived or superseded memory, `pin` makes it stable and important. */
  async memoryAction(memoryId: string, action: 'forget' | 'restore' | 'pin'): Promise<Memory> {
    return (await this.call(`${action}Memory`, id(memoryId))).memory;
  }

  importMemories(memories: ImportLine[]) {
    return this.call('importMemories', { body: { memories } });
  }

  recall(req: Input<Endpoints['recall']['body']> = {}) {
    return this.call('recall', { body: req });
  }

  async search(q: { q: string; project?: string; limit?: number }) {
    return (await this.call('search', { query: q })).hits;
  }

  // ── dreams ──

  async dream(dryRun = false): Promise<DreamReport> {
    return (await this.call('dream', { body: { dryRun } })).report;
  }

  /** Runs a dream, calling onPhase as each phase ends. */
  async dreamWithProgress(dryRun: boolean, onPhase: (phase: string, detail: string) => void): Promise<DreamReport> {
    return this.dreamLines(await this.open('dreamProgress', { body: { dryRun } }), onPhase);
  }

  /** Follows a dream (one that runs now, or has ended): onPhase for each phase, then its report. */
  async followDream(dreamId: string, onPhase: (phase: string, detail: string) => void): Promise<DreamReport> {
    return this.dreamLines(await this.open('followDream', id(dreamId)), onPhase);
  }

  private async dreamLines(res: IncomingMessage, onPhase: (phase: string, detail: string) => void): Promise<DreamReport> {
    await checkStatus(res);
    let report: DreamReport | undefined;
    let failure: AppError | undefined;
    await readLines(res, (text) => {
      const line = ENDPOINTS.dreamProgress.reply.schema.parse(JSON.parse(text));
      if ('phase' in line) onPhase(line.phase, line.detail);
      else if ('report' in line) report = line.report;
      else failure = new AppError(line.error.code as ErrorCode, line.error.message);
    });
    if (failure) throw failure;
    if (!report)
      throw new AppError(
        'connection_lost',
        'the daemon ended the dream stream without a report (it may be shutting down; the dream goes on: `nightshift dream log`)',
      );
    return report;
  }

  async dreams() {
    return (await this.call('listDreams', {})).dreams;
  }

  /** Past dreams and the one running now. */
  dreamLog() {
    return this.call('listDreams', {});
  }

  async dreamReport(dreamId: string): Promise<DreamReport> {
    return (await this.call('getDream', id(dreamId))).report;
  }

  /** Model calls per day, the last `days` days. */
  usage(days?: number) {
    return this.call('usage', { query: { days } });
  }

  /** Which extractor and reviewer run and why, the budget, the agent CLIs. */
  doctor() {
    return this.call('doctor', {});
  }

  /** Reads the config file again and applies what it can (as SIGHUP does). */
  reload() {
    return this.call('reload', {});
  }

  // ── MCP server monitors ──

  async monitors() {
    return (await this.call('listMonitors', {})).monitors;
  }

  addMonitors(req: Input<Endpoints['addMonitors']['body']>) {
    return this.call('addMonitors', { body: req });
  }

  async monitor(ref: string) {
    return (await this.call('getMonitor', id(ref))).monitor;
  }

  async removeMonitor(ref: string) {
    return (await this.call('removeMonitor', id(ref))).monitor;
  }

  async checkMonitor(ref: string) {
    return (await this.call('checkMonitor', id(ref))).monitor;
  }

  // ── sessions ──

  ingest(req: Input<Endpoints['ingest']['body']>) {
    return this.call('ingest', { body: req });
  }

  async sessions() {
    return (await this.call('sessions', {})).sessions;
  }

  /** One session (by file key, session id or a unique prefix): record, digest and sidechains. */
  session(sessionId: string) {
    return this.call('getSession', { params: { id: sessionId } });
  }

  /** Every session of the project extracted again with the current extractor. */
  reextract(project: string, opts: { fallenBack?: boolean } = {}) {
    return this.call('reextract', { body: { project, ...(opts.fallenBack && { fallenBack: true }) } });
  }

  // ── dashboard ──

  /** Turns the web dashboard on; its URL and a one-time login link. */
  enableUi() {
    return this.call('enableUi', {});
  }

  disableUi() {
    return this.call('disableUi', {});
  }
}
