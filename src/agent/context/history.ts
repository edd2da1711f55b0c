/**
 * The stored history: messages with the bookkeeping the manager needs beside them. `seq` is the
 * message's position in the loop's transcript (every message given to addUser / addAssistant /
 * addToolResults, in order), so a checkpoint can say where the kept history starts in it; messages
 * the manager made itself (summary, repairs) have none. Pinned messages (the task statement, the
 * compaction summary) are never evicted.
 */
import type { ContentBlock, ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { repairInvariants, type Violation } from './invariants.js';

export interface Entry {
  message: MessageParam;
  seq?: number;
  pinned?: 'task' | 'summary';
}

/** The text of a message's content (its text blocks, one per line). */
export const textOf = (c: string | ContentBlockParam[]): string => (typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));

/** A response block as a request block (response-only fields such as citations dropped). */
export function toParam(b: ContentBlock | ContentBlockParam): ContentBlockParam {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input, ...(b.caller ? { caller: b.caller } : {}) };
    case 'thinking':
      return { type: 'thinking', thinking: b.thinking, signature: b.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: b.data };
    default:
      // Server tool blocks come back in the shape their request params take.
      return structuredClone(b) as unknown as ContentBlockParam;
  }
}

export class History {
  private entries: Entry[] = [];
  private nextSeq = 0;

  /** Messages given so far (the transcript length). */
  get messageCount(): number {
    return this.nextSeq;
  }

  get length(): number {
    return this.entries.length;
  }

  add(message: MessageParam, pinned?: Entry['pinned']): Entry {
    const e: Entry = { message, seq: this.nextSeq++ };
    if (pinned) e.pinned = pinned;
    this.entries.push(e);
    return e;
  }

  /** Replaces everything (compaction, resume); `messageCount` when the transcript is longer. */
  load(entries: Entry[], messageCount = this.nextSeq): void {
    this.entries = entries;
    this.nextSeq = messageCount;
  }

  all(): readonly Entry[] {
    return this.entries;
  }

  /** The messages, as a new array of the stored objects (tiers rewrite them in place). */
  messages(): MessageParam[] {
    return this.entries.map((e) => e.message);
  }

  pinnedIndices(): Set<number> {
    const s = new Set<number>();
    this.entries.forEach((e, i) => e.pinned && s.add(i));
    return s;
  }

  hasSummary(): boolean {
    return this.entries.some((e) => e.pinned === 'summary');
  }

  /** Transcript index of the oldest message still held (resume = summary + transcript from there). */
  keptFrom(): number {
    return this.entries.find((e) => e.seq !== undefined)?.seq ?? this.nextSeq;
  }

  /** Repairs the invariants in the stored history; entries follow their (possibly merged) messages. */
  repair(): Violation[] {
    const byMessage = new Map(this.entries.map((e) => [e.message, e] as const));
    const { messages, repairs } = repairInvariants(this.messages());
    if (repairs.length > 0) this.entries = messages.map((m) => byMessage.get(m) ?? { message: m });
    return repairs;
  }
}
