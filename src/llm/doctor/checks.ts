/**
 * What `nightshift doctor` checks in the daemon's own environment (the one the backends run in):
 * a list of checks, each `{name, ok, detail, blocking}`. A check whose subject is not configured
 * may fail without being a problem (`blocking: false`).
 */
import type { DoctorCheck } from '../../api/model-usage.js';
import type { Config } from '../../config.js';
import type { CliProbe } from '../backend.js';
import { extractorBackend, reviewerBackend } from '../backends/resolve.js';

export type Check = (config: Config, env: NodeJS.ProcessEnv) => Promise<DoctorCheck>;

/** Whether the config has memory extraction or the dream's review ask this backend. */
function inUse(backend: string, config: Config, env: NodeJS.ProcessEnv): boolean {
  return extractorBackend(config, env).backend === backend || reviewerBackend(config, env).backend === backend;
}

/** An agent CLI as its backend's own probe sees it: found, its version, the flags it lacks, or why it cannot be used. */
function probed(
  name: 'claude' | 'codex',
  backend: 'claude-cli' | 'codex-cli',
  binaryOf: (c: Config) => string,
  probe: (binary: string, env: NodeJS.ProcessEnv) => Promise<CliProbe>,
): Check {
  return async (config, env) => {
    const blocking = inUse(backend, config, env);
    const p = await probe(binaryOf(config), env);
    if (!p.found || p.problem !== undefined) {
      const why = p.problem ?? `${p.path} not found`;
      return { name, ok: false, detail: blocking ? `${why}; ${backend} is configured` : why, blocking };
    }
    const without = p.missingFlags.length > 0 ? `; this version lacks ${p.missingFlags.join(', ')} (called without them)` : '';
    return { name, ok: true, detail: `${p.path}: ${p.version ?? 'version unknown'}${without}`, blocking };
  };
}

// Loaded when doctor runs, not at the daemon's start.
const probeClaude = async (binary: string) => (await import('../backends/claude-cli-probe.js')).probeClaudeCli(binary);
const probeCodex = async (binary: string, env: NodeJS.ProcessEnv) => (await import('../backends/codex-probe.js')).probeCodexCli(binary, env);

/** The agent-CLI checks. */
export const DOCTOR_CHECKS: Check[] = [
  probed('claude', 'claude-cli', (c) => c.memory.claudePath ?? 'claude', probeClaude),
  probed('codex', 'codex-cli', (c) => c.memory.codexPath ?? 'codex', probeCodex),
];

export function runChecks(config: Config, env: NodeJS.ProcessEnv, checks: Check[] = DOCTOR_CHECKS): Promise<DoctorCheck[]> {
  return Promise.all(checks.map((c) => c(config, env)));
}
