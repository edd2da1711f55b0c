/**
 * The route table with its schemas: every route of routes.ts (method, path) joined with its request
 * schemas and answer. The daemon dispatches from it, the full client's calls are typed and checked by
 * it, and docs/api.md is generated from it (`npm run docs:api`). Each group's schemas live in
 * endpoints/; a route without its schemas, or schemas without their route, does not compile.
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

import type { Endpoint, EndpointSpec, Reply } from './endpoint.js';
import { ROUTES, type RouteName, type Routes } from './routes.js';

export type { Endpoint, Reply };
export type { PathParams } from './routes.js';

const SPECS = {
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
} as const satisfies Record<RouteName, EndpointSpec>;
type Specs = typeof SPECS;
/** Schemas for a name routes.ts does not have: each such name is required here, as `never`. */
const noStrays: Record<Exclude<keyof Specs, RouteName>, never> = {};

export type Endpoints = { [N in RouteName]: Routes[N] & Specs[N] };
export type EndpointName = RouteName;

export const ENDPOINTS = Object.fromEntries(
  (Object.keys(ROUTES) as RouteName[]).map((name) => [name, { ...ROUTES[name], ...SPECS[name] }]),
) as Endpoints satisfies Record<RouteName, Endpoint>;
void noStrays;

/** Endpoints by how they answer. */
export type EndpointsReplying<K extends Reply['kind']> = { [N in EndpointName]: Endpoints[N]['reply']['kind'] extends K ? N : never }[EndpointName];

/** A concrete path: the template with each parameter percent-encoded (a dot segment refused). */
export { fillPath as pathOf } from './path.js';
