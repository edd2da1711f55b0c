/**
 * The extractor the daemon uses. auto: the API when one is configured (ANTHROPIC_API_KEY /
 * ANTHROPIC_AUTH_TOKEN / ANTHROPIC_BASE_URL), else the offline extractor. anthropic: the API.
 * claude-cli / codex-cli: the person's own agent CLI and its login, when its probe finds it usable.
 * Every model goes through its ModelBackend and the one pipeline (backend-extract.ts), which falls
 * back to the offline proposals on any failure, so an ingest never fails for want of a model.
 * `backend` names what a model extractor asks (the ledger).
 */
import type { Config } from '../../config.js';
import type { BackendName } from '../../llm/backend.js';
import { extractorBackend } from '../../llm/backends/resolve.js';
import type { Logger } from '../../log.js';
import type { Extractor } from './types.js';
import type { RankMessages } from './rank-thread.js';

type Chosen = { extract: Extractor; describe: string; backend?: BackendName };

const heuristic = (rank: RankMessages): Chosen => ({
  extract: async (input) => (await rank(input.messages, input.maxMemories)).offline,
  describe: 'heuristic',
});

async function withBackend(name: BackendName, config: Config, env: NodeJS.ProcessEnv, log: Logger, quiet: boolean, rank: RankMessages): Promise<Chosen> {
  const { createBackend } = await import('../../llm/backends/index.js');
  const made = await createBackend(name, config, env, log);
  if (!made.ok) {
    if (!quiet) log.warn({ problem: made.reason }, `memory.extractor is "${name}" but it cannot be used: ${made.reason}; using the heuristics`);
    return heuristic(rank);
  }
  const { extractWithBackend } = await import('./backend-extract.js');
  const backend = made.backend;
  return {
    extract: (input) => extractWithBackend(input, { backend, log, rank }),
    // The API's model is named as before ("model claude-…"); a CLI by its own name.
    describe: name === 'anthropic' ? `model ${backend.model}` : `${name} ${backend.model}`,
    backend: name,
  };
}

/** `rank`: where a session's statements are ranked (the daemon's ranking thread, rank-thread.ts). */
export async function chooseExtractor(config: Config, env: NodeJS.ProcessEnv, log: Logger, rank: RankMessages): Promise<Chosen> {
  const which = config.memory.extractor;
  if (which === 'heuristic') return heuristic(rank);
  if (which === 'claude-cli' || which === 'codex-cli') return withBackend(which, config, env, log, false, rank);
  // auto without credentials is the offline extractor, quietly, and never loads the SDK (a daemon
  // without a model does not pay its start-up time); anthropic says why not.
  if (which === 'auto' && extractorBackend(config, env).backend === undefined) return heuristic(rank);
  return withBackend('anthropic', config, env, log, which === 'auto', rank);
}
