/**
 * What `codex exec --json` reports on stdout, one JSON event a line (codex-cli 0.169.0):
 * `turn.completed` {usage: {input_tokens, cached_input_tokens, output_tokens, …}}, `turn.failed`
 * {error: {message}}, a top-level `error` {message} (a failed stream or request), and
 * `item.completed` items, among them `agent_message` {text}. An `item.completed` of type `error` is a
 * warning (an unknown model's metadata, an ignored config key), not a failure.
 */
import type { ModelUsage } from '../backend.js';

export interface CodexEvents {
  usage?: ModelUsage;
  /** The turn failed: the last error codex reported. */
  error?: string;
  /** The text of the last agent message. */
  lastMessage?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

export function readCodexEvents(stdout: string): CodexEvents {
  const out: CodexEvents = {};
  let usage: ModelUsage | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(e)) continue;
    if (e.type === 'turn.completed' && isObj(e.usage)) {
      // A run may take more than one turn: add them up.
      usage = { inputTokens: (usage?.inputTokens ?? 0) + num(e.usage.input_tokens), outputTokens: (usage?.outputTokens ?? 0) + num(e.usage.output_tokens) };
    } else if (e.type === 'turn.failed') {
      const msg = isObj(e.error) ? e.error.message : undefined;
      out.error = clip(typeof msg === 'string' ? msg : 'the turn failed');
    } else if (e.type === 'error' && typeof e.message === 'string') {
      out.error = clip(e.message);
    } else if (e.type === 'item.completed' && isObj(e.item) && e.item.type === 'agent_message' && typeof e.item.text === 'string') {
      out.lastMessage = e.item.text;
    }
  }
  if (usage) out.usage = usage;
  return out;
}
