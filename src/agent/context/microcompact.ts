/**
 * Tier "microcompact": once the model has been idle for five minutes its prompt cache has expired,
 * so rewriting old history costs no cache hit any more. Then every tool result but the newest few
 * is cleared, indiscriminately.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { placeholder, replaceResult, toolResults } from './blocks.js';
import { noChange, type TierReport } from './types.js';

export interface MicrocompactConfig {
  enabled: boolean;
  /** Idle time after which the prompt cache is assumed cold. */
  idleMs: number;
  /** Newest tool results kept. */
  keepRecent: number;
}

export const DEFAULT_MICROCOMPACT: MicrocompactConfig = { enabled: true, idleMs: 5 * 60_000, keepRecent: 3 };

export function applyMicrocompact(messages: MessageParam[], cfg: MicrocompactConfig, idleMs: number, protectedFrom: number): TierReport {
  if (!cfg.enabled || idleMs < cfg.idleMs) return noChange('microcompact');
  const report = noChange('microcompact');
  const results = toolResults(messages);
  const cutoff = results.length - cfg.keepRecent;
  results.forEach((r, i) => {
    if (i >= cutoff || r.cleared || r.msgIndex >= protectedFrom) return;
    report.freedTokens += replaceResult(r.block, placeholder(r.call, 'cleared after the session sat idle', r.tokens));
    report.blocks++;
  });
  return report;
}
