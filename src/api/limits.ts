/**
 * The ranges of the numbers a person types (run options, output reads): one place for the schemas
 * (api/tasks.ts) and the CLI's messages, which name the option and this range. Zod-free: the CLI's
 * fast path reads it without loading zod.
 */

/** Seconds: a task may run at most 20 days. */
export const MAX_TIMEOUT_SECONDS = 20 * 24 * 3600;
export const MAX_RETRY = 100;
export const MAX_RETRY_DELAY_SECONDS = 24 * 3600;
export const MIN_STALL_SECONDS = 1;
export const MAX_STALL_SECONDS = 7 * 24 * 3600;

/** Byte offsets are exact JavaScript integers. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** One output read: by default, at most. */
export const DEFAULT_READ_BYTES = 1024 * 1024;
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A prompt's query for prompt-time recall: its first characters (a pasted log beyond them adds noise, not intent). */
export const PROMPT_QUERY_CHARS = 2000;
