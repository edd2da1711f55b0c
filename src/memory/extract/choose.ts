/**
 * The extractor the daemon uses: the model when one is configured (ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL) and not switched off, else the offline heuristics. The model falls back to
 * the heuristics on any failure, so an ingest never fails for want of a model.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Extractor } from '../ingest.js';
import { extractHeuristic } from './heuristic.js';

export async function chooseExtractor(config: Config, env: NodeJS.ProcessEnv, log: Logger): Promise<{ extract: Extractor; describe: string }> {
  const heuristic: Extractor = async (input) => extractHeuristic(input);
  if (config.memory.extractor === 'heuristic') return { extract: heuristic, describe: 'heuristic' };
  const { createAnthropic, modelConfigFromEnv } = await import('../../llm/client.js');
  const cfg = modelConfigFromEnv(env, { model: config.memory.model });
  if (!cfg) {
    if (config.memory.extractor === 'anthropic')
      log.warn('memory.extractor is "anthropic" but no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set; using the heuristics');
    return { extract: heuristic, describe: 'heuristic' };
  }
  const { extractWithModel } = await import('./llm.js');
  const client = createAnthropic(cfg, log);
  return {
    extract: (input) => extractWithModel(input, { client, model: cfg.model, log, fallback: extractHeuristic }),
    describe: `model ${cfg.model}`,
  };
}
