/**
 * How the API's times, sizes and commands read to a person, one way on every surface: the CLI, MCP,
 * the agent's tools and the dashboard. Zod-free and DOM-free, so the dashboard's bundle and the
 * CLI's fast path can take it. Task states read through task-status.ts.
 */

/** How long ago an ISO time was, in its largest unit: `3s`, `5m`, `2h`, `4d`; `-` for no time. */
export function ago(iso: string | undefined, nowMs = Date.now()): string {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
] as const;

/**
 * A length of time, every surface alike: `250ms`, `1.5s`, `12s`, `3m12s`, `1h05m`, `20d`. From ten
 * seconds on, the two largest units, the second left out when it is zero, so a whole typed value
 * reads as it was typed (`20d`, `1h`).
 */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 10_000) return `${+(ms / 1000).toFixed(1)}s`;
  const whole = Math.round(ms / 1000) * 1000;
  const i = UNITS.findIndex(([, size]) => whole >= size);
  const [unit, size] = UNITS[i] ?? UNITS[3];
  const head = `${Math.floor(whole / size)}${unit}`;
  const next = UNITS[i + 1];
  if (!next) return head;
  const minor = Math.floor((whole % size) / next[1]);
  return minor === 0 ? head : `${head}${String(minor).padStart(2, '0')}${next[0]}`;
}

/** Bytes in binary units: `812B`, `1.2KiB` for a table column; `spaced`: `812 B`, `1.2 KiB`. */
export function humanBytes(n: number, spaced = false): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const gap = spaced ? ' ' : '';
  return i === 0 ? `${n}${gap}B` : `${v.toFixed(v < 10 ? 1 : 0)}${gap}${units[i]}`;
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

/** How a read limit is worded on every surface (CLI, MCP, the agent's tools, docs). */
export function readLimitWords(name: string, defaultBytes: number, maxBytes: number): string {
  return `at most ${name} bytes (default ${binarySize(defaultBytes)}, max ${binarySize(maxBytes)})`;
}

/** argv as a shell would need it typed: words that need quoting are single-quoted. */
export function commandLine(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
