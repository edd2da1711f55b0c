/** Candidates of a session written with the ClaudeSession builder, read as the daemon reads it. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectCandidates, type Candidate } from '../../../src/memory/candidates/index.js';
import { readTranscript } from '../../../src/memory/transcripts/index.js';
import type { ClaudeSession } from '../../helpers/session-lines.js';

export async function candidatesOf(dir: string, s: ClaudeSession): Promise<Candidate[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, s.text());
  return collectCandidates((await readTranscript(file)).messages);
}

export const texts = (cs: readonly Candidate[]): string[] => cs.map((c) => c.text);
