/**
 * `claude -p --output-format json` prints one result object: the answer (`structured_output` with
 * --json-schema, else the text in `result`), usage, `total_cost_usd`, and `is_error` with a
 * `subtype` (error_max_structured_output_retries, error_max_budget_usd, error_max_turns…) when it
 * failed. Only the fields used are validated; the answer text is never quoted in an error.
 */
import { z } from 'zod';
import type { ModelUsage } from '../backend.js';
import { parseStructured } from '../structured.js';

const Usage = z
  .object({
    input_tokens: z.number().default(0),
    output_tokens: z.number().default(0),
    cache_read_input_tokens: z.number().default(0),
    cache_creation_input_tokens: z.number().default(0),
  })
  .passthrough();

const CliResult = z
  .object({
    type: z.literal('result'),
    subtype: z.string().optional(),
    is_error: z.boolean().default(false),
    result: z.string().optional(),
    structured_output: z.unknown().optional(),
    total_cost_usd: z.number().optional(),
    usage: Usage.optional(),
    api_error_status: z.number().nullable().optional(),
    errors: z.array(z.string()).optional(),
  })
  .passthrough();

function usageOf(r: z.infer<typeof CliResult>): ModelUsage | undefined {
  if (!r.usage) return r.total_cost_usd === undefined ? undefined : { inputTokens: 0, outputTokens: 0, costUsd: r.total_cost_usd };
  const u = r.usage;
  return {
    inputTokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
    outputTokens: u.output_tokens,
    ...(r.total_cost_usd !== undefined && { costUsd: r.total_cost_usd }),
  };
}

/** The last JSON line that is a result object (a version may print other lines before it). */
function lastResult(stdout: string): unknown {
  const lines = stdout.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const v = JSON.parse(line) as unknown;
      if (typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'result') return v;
    } catch {
      // not JSON: keep looking
    }
  }
  return undefined;
}

/** A BackendAnswer before the caller adds how long it took. */
export type CliAnswer = { ok: true; value: unknown; usage: ModelUsage } | { ok: false; code: string; message: string; usage?: ModelUsage };

/** The child's stdout and exit → an answer. */
export function readClaudeResult(stdout: string, exitCode: number | null): CliAnswer {
  const parsed = CliResult.safeParse(lastResult(stdout));
  if (!parsed.success) {
    return { ok: false, code: 'unparseable_output', message: `claude printed no JSON result object (exit ${exitCode ?? 'signal'}, ${stdout.length} bytes)` };
  }
  const r = parsed.data;
  const usage = usageOf(r);
  const withUsage = usage === undefined ? {} : { usage };
  if (r.is_error || exitCode !== 0) {
    const why = r.subtype === 'success' || r.subtype === undefined ? '' : r.subtype;
    const api = r.api_error_status ? `API error ${r.api_error_status}` : '';
    const code = r.api_error_status ? 'api_error' : why || 'cli_error';
    // The CLI's own error texts name the failure (they hold no transcript text); clipped anyway.
    const detail = [api, why, ...(r.errors ?? [])].filter(Boolean).join('; ').slice(0, 300);
    return { ok: false, code, message: `claude -p failed (exit ${exitCode ?? 'signal'}): ${detail || 'is_error set'}`, ...withUsage };
  }
  if (r.structured_output !== undefined && r.structured_output !== null)
    return { ok: true, value: r.structured_output, usage: usage ?? { inputTokens: 0, outputTokens: 0 } };
  // No structured output (an older version, or the model answered in text): JSON in the text.
  const text = parseStructured(r.result ?? '', z.record(z.unknown()));
  if (!text.ok) return { ok: false, code: text.error.code, message: `claude -p answered without structured output: ${text.error.message}`, ...withUsage };
  return { ok: true, value: text.value, usage: usage ?? { inputTokens: 0, outputTokens: 0 } };
}
