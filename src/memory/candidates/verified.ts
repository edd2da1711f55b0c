/**
 * Whether the session verified what the assistant said at message `i`: a later check (tests, a build,
 * a linter, a type check) finished without error, or the person confirmed it; a person who asks to
 * run the check again has not ended it. A diagnosis nobody checked stays a guess and is not a learning.
 */
import type { ExtractMessage } from '../transcripts/types.js';

const CHECK = /\b(?:test|tests|spec|pytest|jest|vitest|rspec|build|compile|lint|check|typecheck|tsc|mypy|ruff|credo|dialyzer|clippy|verify)\b/i;
const CONFIRM = /^(?:yes|yep|yeah|works|it works|that works|that worked|worked|fixed|confirmed|perfect|great|correct|right|exactly|lgtm)\b/i;
/** How far ahead a verification still counts. */
const WINDOW = 40;

export function verifiedAfter(messages: readonly ExtractMessage[], i: number): boolean {
  let pendingCheck = false;
  for (let j = i + 1; j < messages.length && j <= i + WINDOW; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind === 'tool_use') pendingCheck = CHECK.test(m.text);
    else if (m.kind === 'tool_result') {
      if (pendingCheck && m.isError !== true) return true;
      pendingCheck = false;
    } else if (m.role === 'user' && m.kind === 'text' && m.meta !== true) {
      if (CONFIRM.test(m.text.trim())) return true;
      // "run the tests again": the person asks for the check itself, which is still to come.
      if (!(CHECK.test(m.text) && /\b(?:again|re-?run)\b/i.test(m.text))) return false;
    }
  }
  return false;
}
