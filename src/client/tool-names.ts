/**
 * The names of every tool the MCP server and the agent offer, in one place. The rule is
 * `<noun>_<verb>`: the thing acted on, singular, then what is done to it (`task_run`,
 * `memory_recall`, `session_search`, `monitor_list`). Tools of one concern then sort together in a
 * client's list, and a new verb has an obvious name. Each adapter offers a subset (the agent has no
 * task list, MCP no task wait) under the same names.
 */
export const TASK_TOOL_NAMES = {
  run: 'task_run',
  output: 'task_output',
  input: 'task_input',
  wait: 'task_wait',
  kill: 'task_kill',
  list: 'task_list',
  pause: 'task_pause',
  resume: 'task_resume',
  restart: 'task_restart',
} as const;

/** Task outcomes since a time or a cursor: for agents without hooks (the hooks tell a session by themselves). */
export const OUTCOME_TOOL_NAMES = { since: 'task_since' } as const;

export const SCHEDULE_TOOL_NAMES = { add: 'schedule_add', list: 'schedule_list', remove: 'schedule_remove' } as const;

export const WORKFLOW_TOOL_NAMES = { run: 'workflow_run', show: 'workflow_show' } as const;

export const MEMORY_TOOL_NAMES = {
  recall: 'memory_recall',
  remember: 'memory_remember',
  forget: 'memory_forget',
  search: 'session_search',
} as const;

export const MONITOR_TOOL_NAMES = { list: 'monitor_list' } as const;
