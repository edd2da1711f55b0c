/**
 * Rebuilding a history from a checkpoint and the loop's transcript (every message it gave the
 * manager, in order): the summary the checkpoint holds, then the transcript from where the kept
 * history started. Messages after the checkpoint are in the transcript, so a task lost between two
 * checkpoints loses nothing; a tool call cut off by the crash is answered by the invariant repair.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Checkpoint } from './checkpoint.js';
import { ACK_TEXT, parseSummary, summaryMessageText, type StructuredSummary } from './compaction-summary.js';
import { messagesTokens } from './token-count.js';
import { textOf, type Entry } from './history.js';
import { NotesStore } from './notes.js';
import type { ContextManagerOptions } from './options.js';
import { fail, ok, type Result } from './types.js';

/** Where a resumed manager starts: its history, and the counters the task had reached. */
export interface ResumePoint {
  entries: Entry[];
  /** The transcript's length: the messages given so far. */
  messageCount: number;
  summary: StructuredSummary | undefined;
  /** The checkpoint's version (0 without one): the next one saved is above it. */
  version: number;
  compactions: number;
  /** chars/4 of the transcript: what the task has added to its history. */
  addedTokens: number;
}

export function resumePoint(cp: Checkpoint | undefined, transcript: readonly MessageParam[]): Result<ResumePoint> {
  if (cp && (cp.messageCount > transcript.length || cp.keptFrom > transcript.length)) {
    return fail('transcript_mismatch', `checkpoint v${cp.version} covers ${cp.messageCount} messages but the transcript has ${transcript.length}`);
  }
  const entries: Entry[] = [];
  let summary: StructuredSummary | undefined;
  const from = cp?.summary ? cp.keptFrom : 0;
  if (cp?.summary) {
    const parsed = parseSummary(cp.summary);
    summary = parsed.ok ? parsed.value : undefined;
    const notes = new NotesStore(cp.notes).render();
    entries.push({
      message: { role: 'user', content: summaryMessageText({ task: cp.goal, summary: cp.summary, notes, compaction: cp.compactions }) },
      pinned: 'summary',
    });
  }
  transcript.slice(from).forEach((message, i) => {
    const e: Entry = { message: structuredClone(message), seq: from + i };
    if (from + i === 0 && message.role === 'user') e.pinned = 'task';
    entries.push(e);
  });
  if (cp?.summary && entries[1]?.message.role === 'user') entries.splice(1, 0, { message: { role: 'assistant', content: ACK_TEXT } });
  return ok({
    entries,
    messageCount: transcript.length,
    summary,
    version: cp?.version ?? 0,
    compactions: cp?.compactions ?? 0,
    addedTokens: messagesTokens(transcript),
  });
}

/** A resumed manager's options: the task statement the checkpoint kept (else the first message's), its notes. */
export function resumedOptions(cp: Checkpoint | undefined, transcript: readonly MessageParam[], opts: ContextManagerOptions): ContextManagerOptions {
  const first = transcript[0]?.role === 'user' ? textOf(transcript[0].content) : undefined;
  const task = opts.task ?? (cp?.goal || first);
  return { ...opts, ...(task !== undefined ? { task } : {}), ...(cp ? { notes: cp.notes } : {}) };
}
