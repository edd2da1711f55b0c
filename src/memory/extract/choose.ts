/**
 * The extractor the daemon uses. auto: the API when one is configured (ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL), else the heuristics. anthropic: the API. claude-cli / codex-cli: the person's
 * own agent CLI and its login, when its probe finds it usable; the session goes as a compact digest
 * (backend-extract.ts). Every model extractor falls back to the heuristics on any failure, so an
 * ingest never fails for want of a model. `backend` names what a model extractor asks (the ledger).
 */
import type { Config } from '../../config.js';
import type { BackendName } from '../../llm/backend.js';
import type { Logger } from '../../log.js';
import type { Extractor } from '../ingest.js';
import { extractOffline as extractHeuristic } from './offline.js';

type Chosen = { extract: Extractor; describe: string; backend?: BackendName };

const heuristic: Chosen = { extract: async (input) => extractHeuristic(input), describe: 'heuristic' };

async function agentCli(name: 'claude-cli' | 'codex-cli', config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<Chosen> {
  const { createBackend } = await import('../../llm/backends/index.js');
  const made = await createBackend(name, config, env, log);
  if (!made.ok) {
    log.warn({ problem: made.reason }, `memory.extractor is "${name}" but it cannot be used: ${made.reason}; using the heuristics`);
    return heuristic;
  }
  const { extractWithBackend } = await import('./backend-extract.js');
  const backend = made.backend;
  return {
    extract: (input) => extractWithBackend(input, { backend, log, fallback: extractHeuristic }),
    describe: `${name} ${backend.model}`,
    backend: name,
  };
}

export async function chooseExtractor(config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<Chosen> {
  const which = config.memory.extractor;
  if (which === 'heuristic') return heuristic;
  if (which === 'claude-cli' || which === 'codex-cli') return agentCli(which, config, env, log);
  const { createAnthropic, modelConfigFromEnv } = await import('../../llm/client.js');
  const cfg = modelConfigFromEnv(env, { model: config.memory.model });
  if (!cfg) {
    if (which === 'anthropic') log.warn('memory.extractor is "anthropic" but no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set; using the heuristics');
    return heuristic;
  }
  const { extractWithModel } = await import('./llm.js');
  const client = createAnthropic(cfg, log);
  return {
    extract: (input) => extractWithModel(input, { client, model: cfg.model, log, fallback: extractHeuristic }),
    describe: `model ${cfg.model}`,
    backend: 'anthropic',
  };
}
