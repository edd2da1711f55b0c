/**
 * Recognising a context overflow, whatever shape the loop hands it in: an SDK error (400 "prompt is
 * too long", 413 request too large), an already classified ModelError, or a response that stopped
 * with `model_context_window_exceeded`. Anything else is not the context manager's business.
 */
import { classifyModelError } from '../../llm/errors.js';

export interface Overflow {
  code: 'prompt_too_long' | 'request_too_large' | 'model_context_window_exceeded';
  message: string;
  /** What the API counted, when it said so: an exact figure to anchor on. */
  promptTokens?: { actual: number; max: number };
}

const OVERFLOW_CODES = new Set(['prompt_too_long', 'request_too_large']);

export function overflowOf(cause: unknown): Overflow | undefined {
  if (cause && typeof cause === 'object') {
    const o = cause as Record<string, unknown>;
    if (o['stop_reason'] === 'model_context_window_exceeded' || o['stopReason'] === 'model_context_window_exceeded') {
      return { code: 'model_context_window_exceeded', message: 'the response stopped: model_context_window_exceeded' };
    }
    // A ModelError from src/llm/errors.ts, already classified by the loop.
    if (typeof o['code'] === 'string' && typeof o['message'] === 'string' && !(cause instanceof Error)) {
      if (!OVERFLOW_CODES.has(o['code'])) return undefined;
      const out: Overflow = { code: o['code'] as Overflow['code'], message: o['message'] };
      const pt = o['promptTokens'] as Overflow['promptTokens'] | undefined;
      if (pt && typeof pt.actual === 'number' && typeof pt.max === 'number') out.promptTokens = pt;
      return out;
    }
  }
  const e = classifyModelError(cause);
  if (!OVERFLOW_CODES.has(e.code)) return undefined;
  const out: Overflow = { code: e.code as Overflow['code'], message: e.message };
  if (e.promptTokens) out.promptTokens = e.promptTokens;
  return out;
}
