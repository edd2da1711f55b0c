/**
 * A ModelBackend by name, or why it cannot be had. Each kind is loaded only when asked for: the SDK
 * costs a daemon without a model start-up time.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { BackendName, ModelBackend } from '../backend.js';

export type BackendResult = { ok: true; backend: ModelBackend } | { ok: false; reason: string };

export async function createBackend(name: BackendName, config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<BackendResult> {
  switch (name) {
    case 'anthropic': {
      const { createAnthropic, modelConfigFromEnv } = await import('../client.js');
      const cfg = modelConfigFromEnv(env, { model: config.memory.model });
      if (!cfg) return { ok: false, reason: 'none of ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL is set' };
      const { anthropicBackend } = await import('./anthropic.js');
      return { ok: true, backend: anthropicBackend(createAnthropic(cfg, log), cfg.model) };
    }
    case 'claude-cli': {
      const { probeClaudeCli } = await import('./claude-cli-probe.js');
      const binary = config.memory.claudePath ?? 'claude';
      const probe = await probeClaudeCli(binary);
      if (probe.problem !== undefined) return { ok: false, reason: probe.problem };
      if (probe.missingFlags.length > 0)
        log.info({ version: probe.version, missing: probe.missingFlags }, 'claude CLI lacks some flags; calling it without them');
      const { createClaudeCliBackend } = await import('./claude-cli.js');
      const m = config.memory;
      // NIGHTSHIFT_MODEL as for the API; never the CLI's own default (ANTHROPIC_MODEL, or a large model).
      const model = env['NIGHTSHIFT_MODEL']?.trim() || m.model;
      return {
        ok: true,
        backend: createClaudeCliBackend({ binary, probe, model, maxUsdPerCall: m.maxUsdPerCall, timeoutSeconds: m.cliTimeoutSeconds, env, log }),
      };
    }
    case 'codex-cli': {
      const { probeCodexCli } = await import('./codex-probe.js');
      const binary = config.memory.codexPath ?? 'codex';
      const probe = await probeCodexCli(binary, env);
      if (probe.problem !== undefined) return { ok: false, reason: probe.problem };
      if (probe.missingFlags.length > 0)
        log.info({ version: probe.version, missing: probe.missingFlags }, 'codex CLI lacks some flags; calling it without them');
      const { createCodexCliBackend } = await import('./codex-cli.js');
      const m = config.memory;
      return {
        ok: true,
        backend: createCodexCliBackend({
          binary,
          timeoutSeconds: m.cliTimeoutSeconds,
          env,
          extraConfig: m.codexConfig,
          ...(m.codexModel !== undefined && { model: m.codexModel }),
        }),
      };
    }
  }
}
