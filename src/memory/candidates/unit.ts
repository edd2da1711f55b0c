/**
 * A unit: one statement to classify (a sentence, an answer, a plan's gist, a summary's bullet), with
 * where it came from and the context the classifier needs. The session's reading (collect.ts) finds
 * passages; `unitsOfPassage` is the one place they become units.
 */
import { analyze, type Sentence } from '../nlp/index.js';
import type { MessageOrigin } from '../transcripts/types.js';
import type { SummarySection } from './summary.js';
import { proseBlocks } from './prose.js';
import type { ExtractMessage } from '../transcripts/types.js';

export type UnitSource =
  'typed' | 'feedback' | 'answer' | 'plan' | 'plan-body' | 'url' | 'instructions' | 'assistant' | 'learning' | `summary-${SummarySection}`;

/** Stage 1 of 9 (from a transcript's `ExtractMessage`, before `Candidate`): one statement, where it came from. */
export interface Unit {
  /** The person's words, tidied (fillers and markup off), never cut inside a sentence. */
  text: string;
  source: UnitSource;
  sentence: Sentence;
  messageId: string;
  at?: string;
  /** A bullet of a list, with the list's intro line when it had one ("workflow:"). */
  bullet: boolean;
  intro?: string;
  /** Part of a long document the person pasted (a brief, a spec), not a message they wrote. */
  document: boolean;
  /** The message as a whole asks a question or for an investigation: its restrictions are about that. */
  investigative: boolean;
  /** How many typed messages came before this one in the session. */
  turn: number;
  /** From the first section of a plan: what the plan is about. */
  lead?: boolean;
  /** A rejection's reason: what it turned down (a plan's gist, a tool call). */
  rejects?: string;
  /** The person's words as a compaction summary quotes them, not as they typed them. */
  restated?: boolean;
  /**
   * The person's verdict on the agent's words they pasted back: a quoted line they endorsed ("the
   * first two are right and stay"), or their own sentence saying which part is right.
   */
  endorses?: boolean;
}

/** Who said it, inferred from the older flags when a message was built without an origin. */
export function originOf(m: ExtractMessage): MessageOrigin {
  // Injected context and a subagent's brief are never the person typing, whatever else they claim.
  if (m.origin === 'typed' || m.origin === 'queued') return m.meta === true ? 'system' : m.sidechain === true ? 'agent' : m.origin;
  if (m.origin !== undefined) return m.origin;
  if (m.compactSummary === true || m.kind === 'summary') return 'summary';
  if (m.kind === 'tool_result') return 'tool';
  if (m.role === 'assistant') return 'assistant';
  if (m.role === 'system' || m.meta === true) return 'system';
  if (m.sidechain === true) return 'agent';
  return 'typed';
}

/** Where a statement was said: its message, when, and the person's turn; all a unit keeps of the message. */
export interface Place {
  messageId: string;
  at?: string;
  turn: number;
}

export function placeOf(m: ExtractMessage, turn: number): Place {
  return { messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }), turn };
}

/** `claude "/skill-name prompt…"` or `/command args`: the prompt is the person's; the command is not. */
const COMMAND_LEAD = /^(?:claude\s+)?["']?\/[\w:-]+\s+/i;

/** A passage of a message that says something, as the session's reading found it, before it is cut into units. */
export interface Passage {
  text: string;
  source: UnitSource;
  /** One unit as it stands (an answer, a plan's gist, a link), not cut into sentences. */
  whole?: boolean;
  /** Kept as written, not tidied: a short reply joined to its question reads only as a pair. */
  verbatim?: boolean;
  /** The first sentence asks something: every restriction after it is about that request. */
  asking?: boolean;
  /** Marks every unit cut from it carries. */
  marks?: Partial<Pick<Unit, 'document' | 'lead' | 'rejects' | 'restated' | 'endorses'>>;
}

/** A statement longer than this is read as its clauses, when it has some (index.ts). */
export const LONG_CHARS = 200;

/** Opens an example of what the sentence before it says: "For example, …", "So an example might be …", "z. B. …", "例えば…". */
const EXAMPLE =
  /^(?:(?:so|and)\s+)?(?:for (?:example|instance)\b|e\.\s?g\.|an example (?:might|would|could|is)\b|example:|por ejemplo\b|zum beispiel\b|z\.\s?b\.|par exemple\b|例えば|たとえば|比如|例如)/i;

/**
 * An example says nothing alone ("For example, use lodash 4.17.21 rather than ^4") and makes the
 * sentence before it concrete, so it stays with that sentence, unless the two together would be
 * long enough to be cut into clauses again.
 */
function withExamples(list: readonly Sentence[]): Sentence[] {
  const out: Sentence[] = [];
  for (const s of list) {
    const prev = out.at(-1);
    if (prev === undefined || !EXAMPLE.test(s.text) || prev.text.length + 1 + s.text.length > LONG_CHARS) {
      out.push(s);
      continue;
    }
    out[out.length - 1] = joinSentences([prev, s]) ?? s;
  }
  return out;
}

/** A message's prose, sentence by sentence, each with the block it stood in; `examples`: each example with the sentence it illustrates. */
function sentencesOf(text: string, examples = false): { sentence: Sentence; bullet: boolean; intro?: string }[] {
  return proseBlocks(text).flatMap((raw) => {
    const block = { ...raw, text: raw.text.replace(COMMAND_LEAD, '') };
    const sentences = analyze(block.text);
    return (examples ? withExamples(sentences) : sentences).map((sentence) => ({
      sentence,
      bullet: block.bullet,
      ...(block.intro !== undefined && { intro: block.intro }),
    }));
  });
}

/** The sentences of a text, as words. */
export function sentenceTexts(text: string): string[] {
  return sentencesOf(text).map((s) => s.sentence.text);
}

const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Sentences read as one; an unspaced script's follow one another with no space ("…こと。例えば…"). */
export function joinSentences(list: readonly Sentence[]): Sentence | undefined {
  return list.reduce<Sentence | undefined>((all, s) => {
    if (all === undefined) return s;
    const space = /[。！？]$/.test(all.text) && UNSPACED.test(s.text) ? '' : ' ';
    return { text: `${all.text}${space}${s.text}`, tokens: [...all.tokens, ...s.tokens], english: all.english && s.english };
  }, undefined);
}

/** The units a passage says, said at `place`: the one place a unit is made. */
export function unitsOfPassage(p: Passage, place: Place): Unit[] {
  const base = { source: p.source, ...place, document: false, investigative: false, ...p.marks };
  if (p.whole === true) {
    const sentence = joinSentences(analyze(p.text.replace(/\s+/g, ' ').trim()));
    return sentence === undefined ? [] : [{ ...base, text: p.verbatim === true ? p.text : sentence.text, sentence, bullet: false }];
  }
  const units = sentencesOf(p.text, true).map(({ sentence, bullet, intro }) => ({
    ...base,
    text: sentence.text,
    sentence,
    bullet,
    ...(intro !== undefined && { intro }),
  }));
  const asks = p.asking === true && /\?\s*$/.test(units[0]?.text ?? '');
  return asks ? units.map((u) => ({ ...u, investigative: true })) : units;
}
