/**
 * What `nightshift doctor` checks in the daemon's own environment (the one the backends run in):
 * a list of checks, each `{name, ok, detail, blocking}`. A check whose subject is not configured
 * may fail without being a problem (`blocking: false`).
 */
import type { DoctorCheck } from '../../api/model-usage.js';
import type { Config } from '../../config.js';
import type { CliProbe } from '../backend.js';
import { extractorBackend, reviewerBackend } from '../backends/resolve.js';
import { findOnPath, readVersion } from './agent-cli.js';

export type Check = (config: Config, env: NodeJS.ProcessEnv) => Promise<DoctorCheck>;

/** Whether the config has memory extraction or the dream's review ask this backend. */
function inUse(backend: string, config: Config, env: NodeJS.ProcessEnv): boolean {
  return extractorBackend(config, env).backend === backend || reviewerBackend(config, env).backend === backend;
}

function agentCli(name: 'claude' | 'codex', backend: 'claude-cli' | 'codex-cli', configured: (c: Config) => string | undefined): Check {
  return async (config, env) => {
    const blocking = inUse(backend, config, env);
    const where = configured(config);
    const file = findOnPath(name, env, where);
    if (!file) {
      const detail = where ? `${where} (memory.${name}Path) is not an executable file` : `${name} is not on the daemon's PATH`;
      return { name, ok: false, detail: blocking ? `${detail}; ${backend} is configured` : detail, blocking };
    }
    const v = await readVersion(file, env);
    return v.ok ? { name, ok: true, detail: `${file}: ${v.version}`, blocking } : { name, ok: false, detail: `${file}: ${v.problem}`, blocking };
  };
}

/** An agent CLI as its backend's own probe sees it: found, its version, the flags it lacks, or why it cannot be used. */
function probed(
  name: 'claude' | 'codex',
  backend: 'claude-cli' | 'codex-cli',
  binaryOf: (c: Config) => string,
  probe: (binary: string) => Promise<CliProbe>,
): Check {
  return async (config, env) => {
    const blocking = inUse(backend, config, env);
    const p = await probe(binaryOf(config));
    if (!p.found || p.problem !== undefined) {
      const why = p.problem ?? `${p.path} not found`;
      return { name, ok: false, detail: blocking ? `${why}; ${backend} is configured` : why, blocking };
    }
    const without = p.missingFlags.length > 0 ? `; this version lacks ${p.missingFlags.join(', ')} (called without them)` : '';
    return { name, ok: true, detail: `${p.path}: ${p.version ?? 'version unknown'}${without}`, blocking };
  };
}

const probeClaude = async (binary: string) => (await import('../backends/claude-cli-probe.js')).probeClaudeCli(binary);

/** The agent-CLI checks. */
export const DOCTOR_CHECKS: Check[] = [
  probed('claude', 'claude-cli', (c) => c.memory.claudePath ?? 'claude', probeClaude),
  agentCli('codex', 'codex-cli', (c) => c.memory.codexPath),
];

export function runChecks(config: Config, env: NodeJS.ProcessEnv, checks: Check[] = DOCTOR_CHECKS): Promise<DoctorCheck[]> {
  return Promise.all(checks.map((c) => c(config, env)));
}
