/**
 * The extractor the daemon uses. auto: the API when one is configured (ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL), else the heuristics. anthropic: the API. claude-cli: the person's own
 * `claude` and its login, when the probe finds it usable. Every model extractor falls back to the
 * heuristics on any failure, so an ingest never fails for want of a model.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Extractor } from '../ingest.js';
import { extractHeuristic } from './heuristic.js';

type Chosen = { extract: Extractor; describe: string };

const heuristic: Extractor = async (input) => extractHeuristic(input);

async function claudeCli(config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<Chosen> {
  const { probeClaudeCli } = await import('../../llm/backends/claude-cli-probe.js');
  const binary = config.memory.claudePath ?? 'claude';
  const probe = await probeClaudeCli(binary);
  if (probe.problem !== undefined) {
    log.warn({ problem: probe.problem }, `memory.extractor is "claude-cli" but it cannot be used: ${probe.problem}; using the heuristics`);
    return { extract: heuristic, describe: 'heuristic' };
  }
  if (probe.missingFlags.length > 0) log.info({ version: probe.version, missing: probe.missingFlags }, 'claude CLI lacks some flags; calling it without them');
  const [{ createClaudeCliBackend }, { extractWithBackend }] = await Promise.all([import('../../llm/backends/claude-cli.js'), import('./backend-extract.js')]);
  const m = config.memory;
  // NIGHTSHIFT_MODEL as for the API; never the CLI's own default (ANTHROPIC_MODEL, or a large model).
  const model = env['NIGHTSHIFT_MODEL']?.trim() || m.model;
  const backend = createClaudeCliBackend({ binary, probe, model, maxUsdPerCall: m.maxUsdPerCall, timeoutSeconds: m.cliTimeoutSeconds, env, log });
  return {
    extract: (input) => extractWithBackend(input, { backend, log, fallback: extractHeuristic }),
    describe: `claude-cli ${model}`,
  };
}

export async function chooseExtractor(config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<Chosen> {
  const which = config.memory.extractor;
  if (which === 'heuristic') return { extract: heuristic, describe: 'heuristic' };
  if (which === 'claude-cli') return claudeCli(config, env, log);
  if (which === 'codex-cli') {
    // Wired at merge (the codex-cli backend is built on its own branch).
    log.warn('memory.extractor is "codex-cli", which this build does not have yet; using the heuristics');
    return { extract: heuristic, describe: 'heuristic' };
  }
  const { createAnthropic, modelConfigFromEnv } = await import('../../llm/client.js');
  const cfg = modelConfigFromEnv(env, { model: config.memory.model });
  if (!cfg) {
    if (which === 'anthropic') log.warn('memory.extractor is "anthropic" but no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set; using the heuristics');
    return { extract: heuristic, describe: 'heuristic' };
  }
  const { extractWithModel } = await import('./llm.js');
  const client = createAnthropic(cfg, log);
  return {
    extract: (input) => extractWithModel(input, { client, model: cfg.model, log, fallback: extractHeuristic }),
    describe: `model ${cfg.model}`,
  };
}
