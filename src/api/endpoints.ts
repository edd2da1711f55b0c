/**
 * The one route table: every endpoint of the daemon's API with its method, path, request schemas
 * and answer. The daemon dispatches from it, the client's calls are typed by it, and the README's
 * API section is generated from it (`npm run docs:api`). Each group of routes lives in endpoints/.
 */
import { SYSTEM_ENDPOINTS } from './endpoints/system.js';
import { TASKS_ENDPOINTS } from './endpoints/tasks.js';
import { GROUPS_ENDPOINTS } from './endpoints/groups.js';
import { SCHEDULES_ENDPOINTS } from './endpoints/schedules.js';
import { AGENT_ENDPOINTS } from './endpoints/agent.js';
import { MEMORY_ENDPOINTS } from './endpoints/memory.js';
import { DREAMS_ENDPOINTS } from './endpoints/dreams.js';
import { MONITORS_ENDPOINTS } from './endpoints/monitors.js';
import { WORKFLOWS_ENDPOINTS } from './endpoints/workflows.js';
import { UI_ENDPOINTS } from './endpoints/ui.js';
import { INJECTION_ENDPOINTS } from './endpoints/injections.js';

import type { Endpoint, Reply } from './endpoint.js';

export type { Endpoint, Reply };

export const ENDPOINTS = {
  ...SYSTEM_ENDPOINTS,
  ...TASKS_ENDPOINTS,
  ...GROUPS_ENDPOINTS,
  ...SCHEDULES_ENDPOINTS,
  ...WORKFLOWS_ENDPOINTS,
  ...AGENT_ENDPOINTS,
  ...MEMORY_ENDPOINTS,
  ...DREAMS_ENDPOINTS,
  ...MONITORS_ENDPOINTS,
  ...UI_ENDPOINTS,
  ...INJECTION_ENDPOINTS,
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

/** A concrete path: the template with each parameter percent-encoded (a dot segment refused). */
export { fillPath as pathOf } from './path.js';
