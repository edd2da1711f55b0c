/**
 * A unit: one statement to classify (a sentence, an answer, a plan's gist, a summary's bullet), with
 * where it came from and the context the classifier needs. Built from a message's prose.
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

export interface Context {
  turn: number;
  document: boolean;
  investigative: boolean;
}

/** `claude "/skill-name prompt…"` or `/command args`: the prompt is the person's; the command is not. */
const COMMAND_LEAD = /^(?:claude\s+)?["']?\/[\w:-]+\s+/i;

export function sentenceUnits(text: string, source: UnitSource, m: ExtractMessage, ctx: Context): Unit[] {
  const out: Unit[] = [];
  for (const raw of proseBlocks(text)) {
    const block = { ...raw, text: raw.text.replace(COMMAND_LEAD, '') };
    for (const sentence of analyze(block.text)) {
      out.push({
        text: sentence.text,
        source,
        sentence,
        messageId: m.id,
        ...(m.timestamp !== undefined && { at: m.timestamp }),
        bullet: block.bullet,
        ...(block.intro !== undefined && { intro: block.intro }),
        document: ctx.document,
        investigative: ctx.investigative,
        turn: ctx.turn,
      });
    }
  }
  return out;
}

export function joinSentences(list: Sentence[]): Sentence | undefined {
  return list.reduce<Sentence | undefined>(
    (all, s) => (all === undefined ? s : { text: `${all.text} ${s.text}`, tokens: [...all.tokens, ...s.tokens], english: all.english && s.english }),
    undefined,
  );
}

export function oneUnit(text: string, source: UnitSource, m: ExtractMessage, turn: number): Unit | undefined {
  const sentence = joinSentences(analyze(text.replace(/\s+/g, ' ').trim()));
  if (sentence === undefined) return undefined;
  return {
    text: sentence.text,
    source,
    sentence,
    messageId: m.id,
    ...(m.timestamp !== undefined && { at: m.timestamp }),
    bullet: false,
    document: false,
    investigative: false,
    turn,
  };
}
