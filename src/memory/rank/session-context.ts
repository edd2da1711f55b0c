/**
 * What a session shows beyond a single statement: the names its tool calls touched (a statement
 * that names them is about this project's own things), and where each topic comes up again. A
 * topic that keeps coming back, in the person's words, the agent's or its tool calls, outlives the
 * moment it was raised in; a one-off request is dealt with and gone.
 */
import type { ExtractMessage } from '../transcripts/types.js';
import { stem, words } from '../nlp/text.js';

export interface SessionContext {
  /** Lower-cased names from the session's tool calls (file and folder names, identifiers). */
  entities: ReadonlySet<string>;
  /** Message id → its position in the session. */
  position: ReadonlyMap<string, number>;
  messages: number;
  /** Stem → positions of the messages that use it (the stems no more than a fifth of messages use). */
  postings: ReadonlyMap<string, readonly number[]>;
}

const PATH = /(?:~|\.{1,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+/g;
const FILE = /\b[\w-]+\.[A-Za-z]{1,5}\b/g;
const IDENT = /\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b/g;
const NAME_MIN = 3;
/** Stems in more than this share of messages say nothing about a topic. */
const COMMON_SHARE = 0.2;
/** Characters of a message read for its topics (tool results are clipped already). */
const TOPIC_CHARS = 2000;

export function termsOf(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => w.length > 3 && !/^\d+$/.test(w))
      .map(stem),
  );
}

export function sessionContext(messages: readonly ExtractMessage[]): SessionContext {
  const entities = new Set<string>();
  const add = (name: string): void => {
    for (const part of name.toLowerCase().split(/[/._-]+/)) if (part.length >= NAME_MIN && !/^\d+$/.test(part)) entities.add(part);
  };
  const all = new Map<string, number[]>();
  const position = new Map<string, number>();
  messages.forEach((m, i) => {
    position.set(m.id, i);
    if (m.kind === 'tool_use') {
      const text = `${m.text} ${m.command ?? ''}`;
      for (const re of [PATH, FILE, IDENT]) for (const hit of text.match(re) ?? []) add(hit);
    }
    if (m.kind === 'tool_result') return;
    for (const t of termsOf(m.text.slice(0, TOPIC_CHARS))) {
      const list = all.get(t);
      if (list === undefined) all.set(t, [i]);
      else list.push(i);
    }
  });
  const postings = new Map<string, number[]>();
  const common = Math.max(3, messages.length * COMMON_SHARE);
  for (const [t, list] of all) if (list.length <= common) postings.set(t, list);
  return { entities, position, messages: messages.length, postings };
}

/**
 * Later messages that come back to a statement's topic (two of its rarer words, or its one rare
 * word): how many, and how far into the rest of the session the last of them is (0 to 1).
 */
export function echoes(text: string, messageId: string, s: SessionContext): { count: number; span: number } {
  const at = s.position.get(messageId) ?? 0;
  const hits = new Map<number, number>();
  let topics = 0;
  for (const t of termsOf(text)) {
    const list = s.postings.get(t);
    if (list === undefined) continue;
    topics++;
    for (const i of list) if (i > at) hits.set(i, (hits.get(i) ?? 0) + 1);
  }
  const need = topics >= 2 ? 2 : 1;
  let count = 0;
  let last = at;
  for (const [i, n] of hits)
    if (n >= need) {
      count++;
      last = Math.max(last, i);
    }
  const rest = s.messages - 1 - at;
  return { count, span: rest <= 0 ? 0 : (last - at) / rest };
}
