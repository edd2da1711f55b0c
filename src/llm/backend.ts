/**
 * A model that answers one structured question. Three kinds stand behind it: the Anthropic API
 * through the SDK (a key or a base URL), and the person's own agent CLI run headless with the login
 * they already have (`claude -p`, `codex exec`). Memory extraction and the dream's review ask through
 * this, so the budget, the usage ledger and the fallback to the heuristics are the same for all three.
 * A failed call is an answer (`ok: false` with a code), never a throw.
 */
export type BackendName = 'anthropic' | 'claude-cli' | 'codex-cli';

export interface StructuredQuestion {
  /** What the answer is for (the usage ledger counts calls per purpose). */
  purpose: 'extract' | 'review';
  system: string;
  prompt: string;
  /** JSON Schema of the answer: an object. */
  schema: Record<string, unknown>;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** What the backend says the call cost, when it says (the Claude CLI does). */
  costUsd?: number;
}

export type BackendAnswer =
  { ok: true; value: unknown; usage: ModelUsage; ms: number } | { ok: false; code: string; message: string; usage?: ModelUsage; ms: number };

export interface ModelBackend {
  readonly name: BackendName;
  readonly model: string;
  ask(question: StructuredQuestion): Promise<BackendAnswer>;
}

/**
 * Set in the environment of every agent CLI nightshift starts for a model call. Every nightshift
 * hook exits 0 at once when it sees it, so an extraction can never set off another session-end ingest.
 */
export const MODEL_CALL_MARKER = 'NIGHTSHIFT_MODEL_CALL';

/** What `doctor` and the backend itself learn from an agent CLI before using it. */
export interface CliProbe {
  /** The binary as it will be run (an absolute path when found). */
  path: string;
  found: boolean;
  version?: string;
  /** Flags this backend needs that the installed version's --help does not list. */
  missingFlags: string[];
  /** Why it cannot be used, in words a user can act on; absent when usable. */
  problem?: string;
}
