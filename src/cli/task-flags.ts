/**
 * The options of the hot commands (run, output, wait), defined once: commander registers them for
 * the full CLI (cli/tasks.ts) and the fast path reads the same table (cli/fast.ts). Zod-free and
 * commander-free, as the fast path must be.
 */
import type { Command } from 'commander';
import { DEFAULT_READ_BYTES, MAX_READ_BYTES } from '../api/limits.js';
import { readLimitWords } from '../api/format.js';
import { envPair, idList, labelPair, OPTION_VALUES, seconds } from './values.js';

export interface FlagSpec {
  /** As commander reads it: `--name <name>` takes a value, `--no-stdin` sets `stdin` to false. */
  flags: string;
  description: string;
  /** Parses a value, given the value so far (repeatable options add to it). */
  parse?: (value: string, previous: unknown) => unknown;
  /** The value before any option is given. */
  default?: unknown;
}

const JSON_FLAG = (what: string): FlagSpec => ({ flags: '--json', description: what });

export const RUN_FLAGS: FlagSpec[] = [
  { flags: '--name <name>', description: 'a label for the task' },
  { flags: '--cwd <dir>', description: 'working directory (default: the current one)' },
  {
    flags: '--env <KEY=VALUE>',
    description: 'set an environment variable (repeatable)',
    parse: (v, prev) => envPair(v, prev as Record<string, string>),
    default: {},
  },
  {
    flags: '--stall-after <seconds>',
    description: 'seconds without output before checking for a prompt (default 45)',
    parse: OPTION_VALUES.stallAfter,
  },
  { flags: '--no-stdin', description: 'give the task /dev/null as stdin instead of an open pipe' },
  {
    flags: '--after <ids>',
    description:
      'start only once these tasks (comma-separated, repeatable) all exited 0; if one fails, is killed, times out or is skipped, this one is skipped',
    parse: (v, prev) => idList(v, prev as string[] | undefined),
  },
  {
    flags: '--after-any <ids>',
    description: 'start once these tasks ended, however they ended',
    parse: (v, prev) => idList(v, prev as string[] | undefined),
  },
  {
    flags: '--label <KEY=VALUE>',
    description: 'a label to find it by (`ps --label`); repeatable',
    parse: (v, prev) => labelPair(v, prev as Record<string, string> | undefined),
  },
  {
    flags: '--group <name>',
    description: "run under this group's parallel limit (see `nightshift group`; default: the default group, maxParallel)",
  },
  {
    flags: '--timeout <duration>',
    description: 'kill the whole process tree after this long (30s, 5m, 1h30m): status timed_out',
    parse: OPTION_VALUES.timeout,
  },
  {
    flags: '--retry <n>',
    description:
      'run it again, up to N more times, while it exits non-zero or times out; each attempt is a task of its own (retryOf/retriedBy), and `wait` follows them to the last',
    parse: OPTION_VALUES.retry,
  },
  { flags: '--retry-delay <duration>', description: 'wait this long before each new attempt (default 0)', parse: OPTION_VALUES.retryDelay },
  JSON_FLAG('print the task as JSON'),
];

export const OUTPUT_FLAGS: FlagSpec[] = [
  { flags: '--offset <n>', description: 'byte offset to start at', parse: OPTION_VALUES.offset, default: 0 },
  { flags: '--limit <bytes>', description: readLimitWords('BYTES', DEFAULT_READ_BYTES, MAX_READ_BYTES), parse: OPTION_VALUES.limit },
  JSON_FLAG('print {data, offset, nextOffset, size, status, done}'),
];

export const WAIT_FLAGS: FlagSpec[] = [
  { flags: '--timeout <seconds>', description: 'give up after this long (exit 124)', parse: seconds('--timeout') },
  JSON_FLAG('print the task as JSON when it ends'),
];

/** The long option (`--stall-after`), whether it takes a value, and the key its value goes to (`stallAfter`), as commander names it. */
export function flagParts(spec: FlagSpec): { long: string; takesValue: boolean; key: string; negates: boolean } {
  const long = /--[a-z][a-z-]*/.exec(spec.flags)?.[0] ?? spec.flags;
  const negates = long.startsWith('--no-');
  const key = long.slice(negates ? 5 : 2).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  return { long, takesValue: spec.flags.includes('<'), key, negates };
}

/** The options on a commander command, in the table's order (its help lists them so). */
export function addFlags(cmd: Command, specs: FlagSpec[]): Command {
  for (const s of specs) {
    if (s.parse) cmd.option(s.flags, s.description, s.parse, s.default);
    else cmd.option(s.flags, s.description);
  }
  return cmd;
}
