import type { TaskOutcome } from '../../api/injections.js';
import type { Task } from '../../api/tasks.js';
import { nowMs } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { InjectionLedger } from '../../inject/ledger.js';
import { belongs, endedAt, outcomeOf } from '../../inject/task-outcomes.js';
import type { MemoryService } from '../../memory/index.js';
import { projectKey } from '../../project.js';
import { Injector } from '../../inject/injector.js';
import type { MemoryRuntime } from '../memory-start.js';
import { afterDelivery, type Handlers } from '../http.js';
import type { Logger } from '../../log.js';
import { hookHandlers } from './hook.js';

type InjectionHandlers = Pick<Handlers, 'injectSessionStart' | 'injectPrompt' | 'hook' | 'injections' | 'tasksSince'>;

interface InjectionDeps {
  injector: Injector;
  ledger: InjectionLedger;
  memory: MemoryService;
  tasks: () => Promise<Task[]>;
}

/** The routes of the hooks and their injections, the ledger and task outcomes, over the memory runtime and every task. */
export function injectionRoutes(memory: MemoryRuntime, tasks: () => Promise<Task[]>, log: Logger): InjectionHandlers {
  const injector = new Injector({ memory: memory.service, prompts: memory.prompts, ledger: memory.injections, tasks });
  return {
    ...injectionHandlers({ injector, ledger: memory.injections, memory: memory.service, tasks }),
    ...hookHandlers({ injector, memory: memory.service, log }),
  };
}

function time(v: string, what: string): string {
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw new AppError('bad_request', `${what} must be an ISO time (e.g. 2026-01-02T10:00:00Z) or a cursor from an earlier answer`);
  return new Date(ms).toISOString();
}

function injectionHandlers(d: InjectionDeps): Omit<InjectionHandlers, 'hook'> {
  return {
    injectSessionStart: async ({ body, req, res }) => {
      const p = await d.injector.sessionStart(body);
      afterDelivery(req, res, p.delivered);
      return { json: p.answer };
    },
    injectPrompt: async ({ body, req, res }) => {
      const p = await d.injector.prompt(body);
      afterDelivery(req, res, p.delivered);
      return { json: p.answer };
    },
    injections: async ({ query }) => {
      const project = query.project ? projectKey(query.project) : undefined;
      return { json: { injections: d.ledger.list({ session: query.session, project, limit: query.limit }), sessions: d.ledger.totals() } };
    },
    tasksSince: async ({ query }) => {
      const since =
        query.cursor !== undefined ? time(query.cursor, 'cursor') : query.since !== undefined ? time(query.since, 'since') : new Date(0).toISOString();
      const project = query.project ? projectKey(query.project) : undefined;
      const ended = (await d.tasks())
        .filter((t) => {
          const at = endedAt(t);
          return at !== undefined && at > since && (project === undefined || belongs(t, project));
        })
        .sort((a, b) => (endedAt(a) ?? '').localeCompare(endedAt(b) ?? ''))
        .slice(0, query.limit);
      const tasks: TaskOutcome[] = await Promise.all(ended.map(outcomeOf));
      const last = tasks[tasks.length - 1]?.endedAt;
      return { json: { tasks, cursor: last ?? (query.cursor !== undefined || query.since !== undefined ? since : new Date(nowMs()).toISOString()) } };
    },
  };
}
