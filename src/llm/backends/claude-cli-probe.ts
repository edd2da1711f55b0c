/**
 * What the installed `claude` can do, read once per binary path from `--version` and `--help`.
 * The backend passes only the flags this version lists; without the essential ones it is unusable
 * and the extractor falls back to the heuristics, saying why (doctor shows the same probe).
 */
import { execFile } from 'node:child_process';
import { which } from '../../sys/which.js';
import type { CliProbe } from '../backend.js';

/** Without these the call cannot be made headless, on the configured model, with a parseable answer. */
export const ESSENTIAL_FLAGS = ['--print', '--output-format', '--model'] as const;
/** Each narrows the call (tokens, isolation, cost); a version without one is used without it. */
export const OPTIONAL_FLAGS = [
  '--tools',
  '--system-prompt',
  '--json-schema',
  '--no-session-persistence',
  '--setting-sources',
  '--settings',
  '--max-budget-usd',
] as const;
export type ClaudeFlag = (typeof ESSENTIAL_FLAGS)[number] | (typeof OPTIONAL_FLAGS)[number];

const PROBE_TIMEOUT_MS = 15_000;
const cache = new Map<string, Promise<CliProbe>>();

function run(file: string, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } },
      (err, stdout, stderr) => resolve({ ok: err === null, stdout, stderr }),
    );
  });
}

/** The flags of `flags` that a --help text does not list (as `--flag` or `-x, --flag`). */
export function missingFlags(help: string, flags: readonly string[]): string[] {
  return flags.filter((f) => !new RegExp(`(?:^|[\\s,])${f.replace(/[-]/g, '\\-')}(?=[\\s,=<[]|$)`, 'm').test(help));
}

async function probe(binary: string): Promise<CliProbe> {
  const path = which(binary, process.env['PATH']);
  if (path === undefined) {
    return { path: binary, found: false, missingFlags: [], problem: `${binary} was not found (install Claude Code or set memory.claudePath)` };
  }
  const [version, help] = await Promise.all([run(path, ['--version']), run(path, ['--help'])]);
  const v = /\d+\.\d+\.\d+\S*/.exec(version.stdout)?.[0];
  if (!help.ok && help.stdout.trim() === '') {
    return {
      path,
      found: true,
      ...(v !== undefined && { version: v }),
      missingFlags: [],
      problem: `${path} --help failed: ${help.stderr.trim().slice(0, 200) || 'no output'}`,
    };
  }
  const missing = missingFlags(help.stdout, [...ESSENTIAL_FLAGS, ...OPTIONAL_FLAGS]);
  const essential = missing.filter((f) => (ESSENTIAL_FLAGS as readonly string[]).includes(f));
  return {
    path,
    found: true,
    ...(v !== undefined && { version: v }),
    missingFlags: missing,
    ...(essential.length > 0 && { problem: `${path} (${v ?? 'unknown version'}) lacks ${essential.join(', ')}: update Claude Code` }),
  };
}

/** Cached per binary path for the life of the process (a CLI update is seen after a restart). */
export function probeClaudeCli(binary: string): Promise<CliProbe> {
  let p = cache.get(binary);
  if (p === undefined) {
    p = probe(binary);
    cache.set(binary, p);
  }
  return p;
}
