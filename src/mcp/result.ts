import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../client/caller.js';
import { AppError } from '../errors.js';

/** Runs one call against the daemon (the stdio entry point starts the daemon when needed). */
export type WithClient = Caller;

/** A successful tool result: the structured value (checked against the output schema) and its text rendering. */
export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A tool failure as a result the model can read, never a protocol error. */
export function failure(err: unknown): CallToolResult {
  let text: string;
  if (err instanceof AppError) {
    text = err.message;
    if (err.code === 'daemon_unavailable') text += ' (start it with `nightshift daemon`, or unset NIGHTSHIFT_NO_AUTOSTART)';
  } else if (err instanceof Error) {
    text = `unexpected error: ${err.message}`;
  } else {
    text = `unexpected error: ${String(err)}`;
  }
  return { content: [{ type: 'text', text }], isError: true };
}

/** Wraps a tool handler so that nothing it throws escapes as anything but an `isError` result. */
export function guarded<A>(fn: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args: A) => {
    try {
      return await fn(args);
    } catch (err) {
      return failure(err);
    }
  };
}
