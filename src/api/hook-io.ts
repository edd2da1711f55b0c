/**
 * What a Claude Code or Codex hook reads and prints, shared by the Node hook (cli/hook.ts) and the
 * daemon's hook route (daemon/routes/hook.ts), so the two print the same bytes for the same input.
 * Both agents send the same fields (session_id, cwd, transcript_path, which Codex sends as null for
 * an ephemeral session, source, reason, prompt) and read the same hookSpecificOutput. Zod-free: the
 * Node hook runs on the CLI's fast path.
 */
import { AppError } from '../errors.js';
import { PROMPT_QUERY_CHARS } from './limits.js';
import type { PromptRecallRequest } from './memory-recall.js';
import type { IngestRequest } from './memory-sessions.js';

export const HOOK_NAMES = ['session-start', 'session-end', 'pre-compact', 'user-prompt-submit'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export type HookInput = Record<string, unknown>;

/** The prompt's context at most, in characters. */
const PROMPT_CONTEXT_CHARS = 2000;

/** The hook input's text as a JSON object; blank is an empty object. */
export function hookInput(text: string): HookInput {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = trimmed ? JSON.parse(trimmed) : {};
  } catch {
    throw new AppError('bad_request', 'the hook input on stdin is not valid JSON');
  }
  return hookObject(value);
}

export function hookObject(value: unknown): HookInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('bad_request', 'unexpected hook input: expected a JSON object');
  return value as HookInput;
}

/** A string field of the hook input: absent (or empty) is undefined, anything but a string is refused. */
export function field(input: HookInput, key: string): string | undefined {
  const v = input[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new AppError('bad_request', `unexpected hook input: ${key}: Expected string, received ${typeof v}`);
  return v;
}

/** `cwd`: the hook's own working directory when the input does not name one. */
export function sessionStartRequest(input: HookInput, cwd: string): { project: string; sessionId?: string; source?: string } {
  const sessionId = field(input, 'session_id');
  const source = field(input, 'source');
  return { project: field(input, 'cwd') ?? cwd, ...(sessionId && { sessionId }), ...(source && { source }) };
}

/** Undefined when there is no prompt (nothing to match, nothing to print). */
export function promptRequest(input: HookInput, cwd: string): PromptRecallRequest | undefined {
  const prompt = field(input, 'prompt');
  if (!prompt) return undefined;
  const sessionId = field(input, 'session_id');
  return { prompt: prompt.slice(0, PROMPT_QUERY_CHARS), ...(sessionId && { sessionId }), project: field(input, 'cwd') ?? cwd, maxChars: PROMPT_CONTEXT_CHARS };
}

/** The hand-over of a session's transcript; undefined path: the session wrote none (`claude mcp list`). `reason`: the hook's own (pre-compact). */
export function ingestRequest(input: HookInput, reason: string | undefined): Partial<IngestRequest> & { wait: false } {
  const sessionId = field(input, 'session_id');
  const cwd = field(input, 'cwd');
  const why = reason ?? field(input, 'reason');
  const path = field(input, 'transcript_path');
  return { ...(path && { path }), wait: false, ...(sessionId && { sessionId }), ...(cwd && { cwd }), ...(why && { reason: why }) };
}

/** What the hook prints: the text as the event's additional context, one line; nothing for no text. */
export function hookAnswer(hookEventName: 'SessionStart' | 'UserPromptSubmit', additionalContext: string): string {
  return additionalContext ? `${JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } })}\n` : '';
}
