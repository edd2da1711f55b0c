/** Formatting shared by the surfaces (CLI, MCP, the agent's tools): tasks, commands, sizes. */
import type { Task } from '../api/tasks.js';

/** A task's status in a word or two, for tables: `exited 3`, `running (prompt)`. */
export function statusLabel(t: Task): string {
  switch (t.status) {
    case 'running':
      return t.paused ? 'running (paused)' : t.attention ? `running (${t.attention.kind})` : 'running';
    case 'exited':
      return `exited ${t.exitCode}`;
    case 'killed':
      return `killed ${t.signal}`;
    default:
      return t.status;
  }
}

/** A task's status as a phrase, for sentences: `exit code 3`, `killed by SIGTERM`, `running, waiting at a prompt`. */
export function statusText(t: Task): string {
  switch (t.status) {
    case 'exited':
      return `exit code ${t.exitCode}`;
    case 'killed':
      return `killed by ${t.signal}${t.reason ? ` (${t.reason})` : ''}`;
    case 'failed_to_start':
      return `failed to start: ${t.error}`;
    case 'lost':
      return `lost: ${t.reason}`;
    case 'timed_out':
      return t.reason;
    case 'skipped':
      return `skipped: ${t.reason}`;
    case 'running':
      if (t.paused) return 'running, paused';
      return t.attention ? `running, ${t.attention.kind === 'prompt' ? 'waiting at a prompt' : 'silent'}` : 'running';
    default:
      return t.status;
  }
}

// Sizes and commands read alike in the dashboard, which shares api/format.ts.
export { binarySize, commandLine, humanBytes, humanSize, readLimitWords } from '../api/format.js';
