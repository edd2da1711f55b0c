/**
 * The run's transcript: every message given to the context manager, in order, one JSON object per
 * line in the plain-messages shape the memory ingest reads (`{role, content, id, timestamp}`,
 * Anthropic content blocks). It is what a resume rebuilds the history from and what is ingested
 * when the run ends. Lines are appended synchronously, so the file is never behind the manager.
 */
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { isErrno } from '../errors.js';

export interface TranscriptLine {
  role: MessageParam['role'];
  content: MessageParam['content'];
  id: string;
  timestamp: string;
}

export class Transcript {
  constructor(
    readonly path: string,
    private readonly idPrefix: string,
    /** Messages before this file (a resumed run's earlier ones): ids go on from there. */
    private seq = 0,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  append(m: MessageParam): void {
    const line: TranscriptLine = { role: m.role, content: m.content, id: `${this.idPrefix}-${++this.seq}`, timestamp: this.clock().toISOString() };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  }

  get count(): number {
    return this.seq;
  }
}

/** The messages of a transcript file; [] when there is none. Unreadable lines (a crash mid-write) are skipped and counted. */
export async function loadTranscript(path: string): Promise<{ messages: MessageParam[]; malformed: number }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { messages: [], malformed: 0 };
    throw err;
  }
  const messages: MessageParam[] = [];
  let malformed = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const o = JSON.parse(raw) as Partial<TranscriptLine>;
      if ((o.role === 'user' || o.role === 'assistant') && (typeof o.content === 'string' || Array.isArray(o.content)) && o.content !== undefined) {
        messages.push({ role: o.role, content: o.content });
      } else malformed++;
    } catch {
      malformed++;
    }
  }
  return { messages, malformed };
}
