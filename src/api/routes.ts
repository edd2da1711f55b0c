/**
 * The one route table: every endpoint of the daemon's API by name, with its method and path. It is
 * zod-free on purpose, so that one object serves all four readers: the daemon (api/endpoints.ts adds
 * each route's schemas and dispatches from the result), the typed client, the light client of the
 * hot commands and the dashboard's bundle, the last two without loading zod.
 */
import { fillPath } from './path.js';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface Route {
  method: Method;
  /** `:name` segments are path parameters. */
  path: string;
}

export const ROUTES = {
  status: { method: 'GET', path: '/v1/status' },
  reload: { method: 'POST', path: '/v1/reload' },
  usage: { method: 'GET', path: '/v1/usage' },
  doctor: { method: 'GET', path: '/v1/doctor' },
  // tasks
  listTasks: { method: 'GET', path: '/v1/tasks' },
  runTask: { method: 'POST', path: '/v1/tasks' },
  getTask: { method: 'GET', path: '/v1/tasks/:id' },
  removeTask: { method: 'DELETE', path: '/v1/tasks/:id' },
  taskOutput: { method: 'GET', path: '/v1/tasks/:id/output' },
  followTask: { method: 'GET', path: '/v1/tasks/:id/follow' },
  followTaskEvents: { method: 'GET', path: '/v1/tasks/:id/follow/sse' },
  sendInput: { method: 'POST', path: '/v1/tasks/:id/input' },
  killTask: { method: 'POST', path: '/v1/tasks/:id/kill' },
  restartTask: { method: 'POST', path: '/v1/tasks/:id/restart' },
  pauseTask: { method: 'POST', path: '/v1/tasks/:id/pause' },
  resumeTask: { method: 'POST', path: '/v1/tasks/:id/resume' },
  waitTask: { method: 'GET', path: '/v1/tasks/:id/wait' },
  events: { method: 'GET', path: '/v1/events' },
  // groups
  listGroups: { method: 'GET', path: '/v1/groups' },
  addGroup: { method: 'POST', path: '/v1/groups' },
  setGroupParallel: { method: 'POST', path: '/v1/groups/:name' },
  removeGroup: { method: 'DELETE', path: '/v1/groups/:name' },
  pauseGroup: { method: 'POST', path: '/v1/groups/:name/pause' },
  resumeGroup: { method: 'POST', path: '/v1/groups/:name/resume' },
  // schedules
  addSchedule: { method: 'POST', path: '/v1/schedules' },
  listSchedules: { method: 'GET', path: '/v1/schedules' },
  getSchedule: { method: 'GET', path: '/v1/schedules/:id' },
  pauseSchedule: { method: 'POST', path: '/v1/schedules/:id/pause' },
  resumeSchedule: { method: 'POST', path: '/v1/schedules/:id/resume' },
  removeSchedule: { method: 'DELETE', path: '/v1/schedules/:id' },
  // workflows
  runWorkflow: { method: 'POST', path: '/v1/workflows' },
  listWorkflows: { method: 'GET', path: '/v1/workflows' },
  getWorkflow: { method: 'GET', path: '/v1/workflows/:id' },
  killWorkflow: { method: 'POST', path: '/v1/workflows/:id/kill' },
  // agent tasks
  startAgent: { method: 'POST', path: '/v1/agents' },
  compactAgent: { method: 'POST', path: '/v1/agents/:id/compact' },
  // memories and sessions
  remember: { method: 'POST', path: '/v1/memories' },
  listMemories: { method: 'GET', path: '/v1/memories' },
  importMemories: { method: 'POST', path: '/v1/memories/import' },
  projects: { method: 'GET', path: '/v1/projects' },
  getMemory: { method: 'GET', path: '/v1/memories/:id' },
  forgetMemory: { method: 'POST', path: '/v1/memories/:id/forget' },
  restoreMemory: { method: 'POST', path: '/v1/memories/:id/restore' },
  pinMemory: { method: 'POST', path: '/v1/memories/:id/pin' },
  editMemory: { method: 'POST', path: '/v1/memories/:id/edit' },
  memoryHistory: { method: 'GET', path: '/v1/memories/:id/history' },
  memorySources: { method: 'GET', path: '/v1/memories/:id/sources' },
  recall: { method: 'POST', path: '/v1/recall' },
  recallPrompt: { method: 'POST', path: '/v1/recall/prompt' },
  search: { method: 'GET', path: '/v1/search' },
  ingest: { method: 'POST', path: '/v1/ingest' },
  sessions: { method: 'GET', path: '/v1/sessions' },
  getSession: { method: 'GET', path: '/v1/sessions/:id' },
  reextract: { method: 'POST', path: '/v1/memories/reextract' },
  // dreams
  dream: { method: 'POST', path: '/v1/dreams' },
  dreamProgress: { method: 'POST', path: '/v1/dreams/progress' },
  listDreams: { method: 'GET', path: '/v1/dreams' },
  getDream: { method: 'GET', path: '/v1/dreams/:id' },
  followDream: { method: 'GET', path: '/v1/dreams/:id/follow' },
  // MCP server monitors
  listMonitors: { method: 'GET', path: '/v1/monitors' },
  addMonitors: { method: 'POST', path: '/v1/monitors' },
  getMonitor: { method: 'GET', path: '/v1/monitors/:id' },
  removeMonitor: { method: 'DELETE', path: '/v1/monitors/:id' },
  checkMonitor: { method: 'POST', path: '/v1/monitors/:id/check' },
  // the dashboard
  enableUi: { method: 'POST', path: '/v1/ui' },
  disableUi: { method: 'DELETE', path: '/v1/ui' },
  // what the hooks inject, and the ledger of it
  injectSessionStart: { method: 'POST', path: '/v1/inject/session-start' },
  injectPrompt: { method: 'POST', path: '/v1/inject/prompt' },
  hook: { method: 'POST', path: '/v1/hook/:event' },
  injections: { method: 'GET', path: '/v1/injections' },
  rejectMemory: { method: 'POST', path: '/v1/memories/:id/reject' },
  unrejectMemory: { method: 'POST', path: '/v1/memories/:id/unreject' },
  tasksSince: { method: 'GET', path: '/v1/task-outcomes' },
} as const satisfies Record<string, Route>;

export type Routes = typeof ROUTES;
export type RouteName = keyof Routes;

/** The names in a path template: `/v1/tasks/:id/output` → `'id'`. */
export type PathParams<P extends string> = P extends `${string}:${infer K}/${infer Rest}`
  ? K | PathParams<`/${Rest}`>
  : P extends `${string}:${infer K}`
    ? K
    : never;

/** The path parameters of route N, by name. */
export type ParamsOf<N extends RouteName> = Record<PathParams<Routes[N]['path']>, string>;

/** Query values as a caller has them; undefined ones are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

/**
 * Where a call to route N goes: its path with each parameter percent-encoded (a dot segment
 * refused, see path.ts), then its query, encoded the same way by every client.
 */
export function routeUrl(name: RouteName, params: Record<string, string> = {}, query: QueryValues = {}): string {
  const path = fillPath(ROUTES[name].path, params);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
  const text = qs.toString();
  return text ? `${path}?${text}` : path;
}
