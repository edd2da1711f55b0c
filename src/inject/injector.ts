/**
 * Where the two halves meet at the agent: the session-start block (tasks of the project that ended
 * since its last session, then the recall, in one budget) and each prompt's context (one line per
 * task outcome the session was not told yet, then the matching memories new to the session). Each
 * is recorded in the injection ledger (items, why, tokens) and its items marked as given to the
 * session only once the answer reached the hook (`delivered`, called by the route): an answer the
 * hook gave up on was never read, so nothing in it may be withheld later as already given.
 */
import { performance } from 'node:perf_hooks';
import type { InjectedItem, InjectResponse, Injection, PromptInjectRequest, SessionStartRequest, TaskOutcome } from '../api/injections.js';
import type { RecallItem } from '../api/memory.js';
import { hookContext, renderPromptContext } from '../api/recall-render.js';
import type { Task } from '../api/tasks.js';
import { nowMs } from '../clock.js';
import { estimateTokens } from '../llm/tokens.js';
import type { InjectionLedger } from './ledger.js';
import { outcomeOf, pickForPrompt, pickForStart, toldKey } from './task-outcomes.js';
import { renderTaskLine, renderTasks } from './task-lines.js';
import { whyOf } from './why.js';
import type { MemoryService, PromptRecall } from '../memory/index.js';
import { projectKey } from '../project.js';

/** With no earlier session of the project on record: tasks of the last day. */
const FIRST_SESSION_WINDOW_MS = 86_400_000;

export interface InjectorDeps {
  memory: MemoryService;
  prompts: PromptRecall;
  ledger: InjectionLedger;
  /** Every task the daemon knows, ended or not. */
  tasks: () => Promise<Task[]>;
}

/** An answer, and what to do once the hook has it (record it, mark its items as given). */
export interface Prepared {
  answer: InjectResponse;
  delivered: () => void;
}

const NOTHING = (): void => undefined;

export class Injector {
  constructor(private readonly d: InjectorDeps) {}

  /** When the project's last session began: its latest session start on record, else its latest ingested session's first message. */
  private since(project: string, sessionId: string | undefined): string {
    const started = this.d.ledger.lastStart(project, sessionId);
    if (started !== undefined) return started;
    let first: string | undefined;
    for (const s of this.d.memory.sessions.list())
      if (s.project === project && s.sessionId !== sessionId && s.firstMessageAt && (first === undefined || s.firstMessageAt > first)) first = s.firstMessageAt;
    return first ?? new Date(nowMs() - FIRST_SESSION_WINDOW_MS).toISOString();
  }

  async sessionStart(req: SessionStartRequest): Promise<Prepared> {
    const t0 = performance.now();
    const project = projectKey(req.project);
    const told = (req.sessionId && this.d.ledger.sessionOf(req.sessionId)?.told) || new Set<string>();
    const picked = pickForStart(await this.d.tasks(), project, this.since(project, req.sessionId), told, req.sessionId);
    const outcomes = await Promise.all(picked.map(outcomeOf));
    let r = this.d.memory.recall({ project, episodes: true, ...(req.budget && { budget: req.budget }) });
    // The tasks come out of the same budget: the recall gets what they leave.
    const taskTokens = outcomes.length > 0 ? estimateTokens(renderTasks(outcomes)) : 0;
    if (taskTokens > 0) r = this.d.memory.recall({ project, episodes: true, budget: Math.max(50, r.budget - taskTokens) });
    const context = hookContext(r, outcomes.length === 0 ? '' : renderTasks(outcomes));
    const tl = performance.now();
    const items = [...outcomes.map((o) => taskItem(o, renderTasks([o]).split('\n').slice(1).join('\n'))), ...this.recallItems(r.items, null)];
    const sessionId = req.sessionId;
    if (items.length === 0) {
      // Nothing to mark; the session still began (the next session of the project is told of tasks since then).
      const at = new Date(nowMs()).toISOString();
      return { answer: { context, injection: null }, delivered: sessionId ? () => this.d.ledger.started(sessionId, project, at) : NOTHING };
    }
    const injection = this.injection('session-start', req.sessionId, project, items, context, t0, tl);
    return { answer: { context, injection }, delivered: () => this.deliver(injection) };
  }

  async prompt(req: PromptInjectRequest): Promise<Prepared> {
    const t0 = performance.now();
    const project = req.project ? projectKey(req.project) : null;
    let outcomes: TaskOutcome[] = [];
    let keys: string[] = [];
    if (req.sessionId) {
      const s = this.d.ledger.begin(req.sessionId, project, new Date(nowMs()).toISOString());
      const picked = pickForPrompt(await this.d.tasks(), project, req.sessionId, s.beganAt, s.told);
      outcomes = await Promise.all(picked.map(outcomeOf));
      keys = picked.map(toldKey);
    }
    const lines = outcomes.map(renderTaskLine);
    const taskChars = lines.reduce((n, l) => n + l.length + 1, 0);
    const room = req.maxChars - taskChars;
    const r = room >= 200 && req.prompt.trim() ? this.d.prompts.forPrompt({ ...req, maxChars: room }) : { items: [], repeated: 0 };
    const parts = [...lines, ...(r.items.length > 0 ? [renderPromptContext(r.items, room)] : [])];
    if (parts.length === 0) return { answer: { context: '', injection: null }, delivered: NOTHING };
    const context = parts.join('\n');
    const tl = performance.now();
    const items = [...outcomes.map((o, i) => ({ ...taskItem(o, lines[i] ?? ''), id: keys[i] ?? o.id })), ...this.recallItems(r.items, req.prompt)];
    const injection = this.injection('prompt', req.sessionId, project, items, context, t0, tl);
    return { answer: { context, injection }, delivered: () => this.deliver(injection) };
  }

  /** The hook has the answer: the ledger records it (and so the tasks it told of), and its memories and excerpts are given to the session, at its start as at a prompt. */
  private deliver(injection: Injection): void {
    this.d.ledger.record(injection);
    if (injection.sessionId === null) return;
    const recalled = injection.items.filter((i) => i.kind === 'memory' || i.kind === 'episode').map((i) => i.id);
    this.d.prompts.given(injection.sessionId, recalled);
  }

  private recallItems(items: RecallItem[], query: string | null): InjectedItem[] {
    const now = nowMs();
    return items.map((i) => ({
      kind: i.kind,
      id: i.id,
      score: Math.round(i.score * 1000) / 1000,
      why: whyOf(i, i.kind === 'memory' ? this.d.memory.store.get(i.id) : undefined, query, now),
      tokens: i.tokens,
      text: i.text,
    }));
  }

  /** `t0`: the request began; `tl`: the ledger's part began (the items' reasons). */
  private injection(
    event: Injection['event'],
    sessionId: string | undefined,
    project: string | null,
    items: InjectedItem[],
    context: string,
    t0: number,
    tl: number,
  ): Injection {
    return {
      id: this.d.ledger.nextId(),
      at: new Date(nowMs()).toISOString(),
      event,
      sessionId: sessionId ?? null,
      project,
      items,
      tokens: context ? estimateTokens(context) : 0,
      ms: Math.round((performance.now() - t0) * 100) / 100,
      ledgerMs: Math.round((performance.now() - tl) * 1000) / 1000,
    };
  }
}

function taskItem(o: TaskOutcome, text: string): InjectedItem {
  return { kind: 'task', id: o.id, score: o.failed ? 1 : 0.5, why: ['task outcome', o.outcome], tokens: estimateTokens(text), text };
}
