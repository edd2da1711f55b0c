/**
 * What the installed Codex CLI can do: its version and which of the `codex exec` flags the backend
 * uses its `--help` lists (checked against codex-cli 0.169.0). Required flags missing make it
 * unusable (`problem`); optional ones are left out of the call. Cached per binary and PATH.
 */
import { execFile } from 'node:child_process';
import { which } from '../../sys/which.js';
import { MODEL_CALL_MARKER, type CliProbe } from '../backend.js';

/** Without these there is no structured answer to read. */
export const CODEX_REQUIRED_FLAGS = ['--output-schema', '--output-last-message', '--config'] as const;
/** Left out when missing: usage and errors come from --json; the rest keeps the call small and harmless. */
export const CODEX_OPTIONAL_FLAGS = ['--json', '--ephemeral', '--sandbox', '--skip-git-repo-check', '--ignore-user-config', '--model'] as const;
export type CodexFlag = (typeof CODEX_REQUIRED_FLAGS)[number] | (typeof CODEX_OPTIONAL_FLAGS)[number];

export interface CodexProbe extends CliProbe {
  /** The flags the backend uses that this version has. */
  flags: ReadonlySet<CodexFlag>;
}

function run(binary: string, args: string[], env: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(binary, args, { env, timeout: 15_000, maxBuffer: 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout) => resolve(err ? undefined : stdout));
  });
}

/** The environment of a probe or a call: HOME, CODEX_HOME, PATH, OPENAI_*, and the marker. */
export function codexEnv(from: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = { [MODEL_CALL_MARKER]: '1' };
  for (const [k, v] of Object.entries(from)) {
    if (v !== undefined && (k === 'HOME' || k === 'CODEX_HOME' || k === 'PATH' || k.startsWith('OPENAI_'))) env[k] = v;
  }
  return env;
}

async function probe(binary: string, from: NodeJS.ProcessEnv): Promise<CodexProbe> {
  const path = which(binary, from.PATH);
  if (!path) {
    return {
      path: binary,
      found: false,
      missingFlags: [],
      flags: new Set(),
      problem: `${binary} not found${binary.includes('/') ? '' : ' on PATH'}; install the Codex CLI or set memory.codexPath`,
    };
  }
  const env = codexEnv(from);
  const [versionText, help] = await Promise.all([run(path, ['--version'], env), run(path, ['exec', '--help'], env)]);
  const version = /(\d+\.\d+\.\d+[\w.-]*)/.exec(versionText ?? '')?.[1];
  if (help === undefined)
    return {
      path,
      found: true,
      ...(version && { version }),
      missingFlags: [],
      flags: new Set(),
      problem: `\`${path} exec --help\` failed; is it the Codex CLI?`,
    };
  const listed = (flag: string) => new RegExp(`(^|[\\s,])${flag}(?![\\w-])`, 'm').test(help);
  const all: CodexFlag[] = [...CODEX_REQUIRED_FLAGS, ...CODEX_OPTIONAL_FLAGS];
  const flags = new Set(all.filter(listed));
  const missingFlags = all.filter((f) => !flags.has(f));
  const missingRequired = CODEX_REQUIRED_FLAGS.filter((f) => !flags.has(f));
  const problem =
    missingRequired.length > 0
      ? `codex ${version ?? '(unknown version)'} exec lacks ${missingRequired.join(', ')}; update the Codex CLI (checked with 0.169.0)`
      : undefined;
  return { path, found: true, ...(version && { version }), missingFlags, flags, ...(problem && { problem }) };
}

const cache = new Map<string, Promise<CodexProbe>>();

/**
 * Probes once per binary and PATH (a binary not found is looked for again next time: it may have
 * been installed since); `env`: where PATH, HOME and CODEX_HOME come from (default: this process's).
 */
export function probeCodexCli(binary: string, env: NodeJS.ProcessEnv = process.env): Promise<CodexProbe> {
  const key = `${binary}\0${env.PATH ?? ''}`;
  let p = cache.get(key);
  if (!p) {
    p = probe(binary, env);
    cache.set(key, p);
    void p.then((r) => {
      if (!r.found) cache.delete(key);
    });
  }
  return p;
}
