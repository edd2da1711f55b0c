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

/** Bytes for a table column: `812B`, `1.2KiB`. */
export function humanBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n}B` : `${v.toFixed(v < 10 ? 1 : 0)}${units[i]}`;
}

/** Bytes for a sentence: `812 B`, `1.2 KB`. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** An exact size in binary units: `64 KiB`, `16 MiB`, `100 bytes`. */
export function binarySize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** How a read limit is worded on every surface (CLI, MCP, the agent's tools, README). */
export function readLimitWords(name: string, defaultBytes: number, maxBytes: number): string {
  return `at most ${name} bytes (default ${binarySize(defaultBytes)}, max ${binarySize(maxBytes)})`;
}

/** argv as a shell would need it typed: words that need quoting are single-quoted. */
export function commandLine(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
