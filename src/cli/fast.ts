/**
 * The fast path of the hot commands: `run`, `output`, `wait`, `ingest` and `hook …` answered without
 * commander, zod or node:http, in little more than Node's own start-up. It understands only the
 * plain forms of their arguments; anything else (help, an unknown or malformed option, a daemon
 * that is not running, so autostart applies) returns false and the full CLI handles the command.
 */
import { LightClient } from '../client/light-client.js';
import { AppError } from '../errors.js';
import { resolvePaths } from '../paths.js';
import { HOOK_NAMES, type HookName } from '../api/hook-io.js';
import { runHook } from './hook.js';
import { ingestFiles, transcriptFormat, type IngestOptions } from './ingest-files.js';
import { reportError } from './report.js';
import { printOutput, runTask, waitTask, type OutputOptions, type RunOptions, type WaitOptions } from './task-actions.js';
import { flagParts, OUTPUT_FLAGS, RUN_FLAGS, WAIT_FLAGS, type FlagSpec } from './task-flags.js';

interface Flag {
  key: string;
  /** Takes a value: parse it (with the value so far, for repeatable ones). No parse: a boolean flag. */
  parse?: (v: string, prev: unknown) => unknown;
  /** `--no-x`: sets `key` to false. */
  negates?: boolean;
}

/**
 * Options first, then positionals; `--` ends the options. Null for anything commander would treat
 * differently or complain about: the full CLI then parses it and says what is wrong.
 */
export function parseArgs<O extends object>(
  argv: string[],
  flags: Record<string, Flag>,
  defaults: O,
  arity: { min: number; max: number },
): { opts: O; args: string[] } | null {
  const opts: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  const args: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const f = flags[a];
    if (!f) return null;
    if (!f.parse) {
      opts[f.key] = !f.negates;
      continue;
    }
    const v = argv[++i];
    if (v === undefined || v.startsWith('-')) return null;
    try {
      opts[f.key] = f.parse(v, opts[f.key]);
    } catch {
      return null;
    }
  }
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    // An option after a positional: commander would still read it as an option.
    if (a.startsWith('-') && !argv.slice(0, i).includes('--')) return null;
    args.push(a);
  }
  // The flags' keys are the options' names: what they parse is what the options hold.
  return args.length >= arity.min && args.length <= arity.max ? { opts: opts as O, args } : null;
}

/** The fast path's reading of a table of task-flags.ts: the same options, keys and parsers as commander's. */
function fastFlags(specs: FlagSpec[]): { flags: Record<string, Flag>; defaults: Record<string, unknown> } {
  const flags: Record<string, Flag> = {};
  const defaults: Record<string, unknown> = {};
  for (const spec of specs) {
    const { long, takesValue, key, negates } = flagParts(spec);
    flags[long] = { key, ...(takesValue ? { parse: spec.parse ?? ((v: string) => v) } : {}), ...(negates ? { negates } : {}) };
    if (spec.default !== undefined) defaults[key] = spec.default;
    else if (negates) defaults[key] = true;
  }
  return { flags, defaults };
}

/**
 * `ingest`'s arguments: its options may come before, between or after the files, as commander
 * takes them; `--` ends them. Null for anything else (help, `--format=…`, an unknown option).
 */
export function parseIngestArgs(argv: readonly string[]): { files: string[]; opts: IngestOptions } | null {
  const opts: IngestOptions = {};
  const files: string[] = [];
  const takes: Record<string, (v: string) => void> = {
    '--format': (v) => (opts.format = transcriptFormat(v)),
    '--project': (v) => (opts.project = v),
    '--session': (v) => (opts.session = v),
  };
  const flags: Record<string, keyof IngestOptions> = { '--reingest': 'reingest', '--async': 'async', '--json': 'json' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      files.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') files.push(a);
    else if (flags[a] !== undefined) (opts as Record<string, unknown>)[flags[a]] = true;
    else {
      const take = takes[a];
      const v = argv[++i];
      if (take === undefined || v === undefined || v.startsWith('-')) return null;
      try {
        take(v);
      } catch {
        return null;
      }
    }
  }
  return files.length > 0 ? { files, opts } : null;
}

const RUN = fastFlags(RUN_FLAGS);
const OUTPUT = fastFlags(OUTPUT_FLAGS);
const WAIT = fastFlags(WAIT_FLAGS);

/** Reaches the daemon with the light client; the commands' own callers (TaskCaller, IngestCaller) are its narrowings. */
type LightCaller = <T>(fn: (c: LightClient) => Promise<T>) => Promise<T>;

/** Not running: the full CLI takes over (and starts the daemon, unless that is off). */
class Unavailable extends Error {}

/** Runs `argv` (without node and the script) if it is a hot command in a plain form; false otherwise. */
export async function runFast(argv: string[]): Promise<boolean> {
  const [command, ...rest] = argv;
  let job: ((call: LightCaller) => Promise<void>) | undefined;
  if (command === 'run') {
    const p = parseArgs(rest, RUN.flags, RUN.defaults as unknown as RunOptions, { min: 1, max: Infinity });
    if (p) job = (call) => runTask(call, p.args, p.opts);
  } else if (command === 'output') {
    const p = parseArgs(rest, OUTPUT.flags, OUTPUT.defaults as unknown as OutputOptions, { min: 1, max: 1 });
    if (p) job = (call) => printOutput(call, p.args[0] as string, p.opts);
  } else if (command === 'wait') {
    const p = parseArgs(rest, WAIT.flags, WAIT.defaults as WaitOptions, { min: 1, max: 1 });
    if (p) job = (call) => waitTask(call, p.args[0] as string, p.opts);
  } else if (command === 'ingest') {
    const p = parseIngestArgs(rest);
    if (p) job = (call) => ingestFiles(call, p.files, p.opts);
  } else if (command === 'hook' && rest.length === 1 && (HOOK_NAMES as readonly string[]).includes(rest[0] as string)) {
    // Hooks never fall back: they reach the daemon (or give up) on their own terms.
    await runHook(rest[0] as HookName).catch(reportError);
    return true;
  }
  if (!job) return false;
  const light = new LightClient(resolvePaths().socket);
  const call: LightCaller = async (fn) => {
    try {
      return await fn(light);
    } catch (err) {
      // Nothing reached the daemon: safe to hand the whole command over.
      if (err instanceof AppError && err.code === 'daemon_unavailable') throw new Unavailable();
      throw err;
    }
  };
  try {
    await job(call);
  } catch (err) {
    if (err instanceof Unavailable) return false;
    reportError(err);
  }
  return true;
}
