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
    case 'claude-cli':
      return { ok: false, reason: 'not wired' };
    case 'codex-cli':
      return { ok: false, reason: 'not wired' };
  }
}
