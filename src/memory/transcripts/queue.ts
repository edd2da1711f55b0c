/**
 * Claude Code's queue of prompts typed while the agent was busy (`queue-operation` enqueue lines).
 * Most of them arrive again later, as the turn's user message or as a `queued_command` attachment;
 * only those that never do are the queue's own messages. So an enqueued prompt is held until the
 * same text arrives (then it is dropped: the later copy is the message) or until a different
 * prompt of the person's or the end of the input shows it will not (then it is released).
 */
import type { TranscriptMessage } from './types.js';

const MAX_HELD = 1000;

const key = (text: string) => text.replace(/\s+/g, ' ').trim();

export class QueuedPrompts {
  private readonly held = new Map<string, TranscriptMessage>();

  hold(message: TranscriptMessage): TranscriptMessage[] {
    this.held.set(key(message.text), message);
    if (this.held.size <= MAX_HELD) return [];
    const oldest = this.held.entries().next();
    if (oldest.done === true) return [];
    this.held.delete(oldest.value[0]);
    return [oldest.value[1]];
  }

  /**
   * The person's prompt `text` arrived as a message: held copies of it are dropped (several queued
   * prompts may arrive joined in one message).
   */
  arrived(text: string): boolean {
    if (this.held.size === 0) return false;
    const k = key(text);
    if (this.held.delete(k)) return true;
    let found = false;
    for (const held of [...this.held.keys()]) {
      if (held !== '' && k.includes(held)) found = this.held.delete(held) || found;
    }
    return found;
  }

  /** Everything held, in the order it was queued. */
  release(): TranscriptMessage[] {
    const out = [...this.held.values()];
    this.held.clear();
    return out;
  }
}
