/** The question put to the model: the session's outline goes with its first part only. */
import { describe, expect, it } from 'vitest';
import type { SessionDigest } from '../../../src/api/digest.js';
import { userPrompt } from '../../../src/memory/extract/model-prompt.js';

const digest = {
  files: [{ path: 'src/app.ts', edits: 2, messageIds: ['a1'] }],
  commands: [{ command: 'npm test', kind: 'test', runs: 1, failures: 0 }],
} as unknown as SessionDigest;

const parts = (part: number, withDigest = true) =>
  userPrompt({ project: '/p', ...(withDigest && { digest }), known: [], candidates: [], part, parts: 2, maxMemories: 5 });

describe('userPrompt', () => {
  it("puts the session's outline in the first part, and in no other", () => {
    expect(parts(1)).toContain('<session>\nFiles edited: src/app.ts\nCommands run: `npm test` (test)\n</session>');
    expect(parts(2)).not.toContain('<session>');
    expect(parts(2)).toContain('(part 2 of 2;');
  });

  it('leaves the outline out when the session has no digest', () => {
    expect(parts(1, false)).not.toContain('<session>');
  });
});
