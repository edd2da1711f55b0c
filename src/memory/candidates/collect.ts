/**
 * Every place a person states something, as statements the ranker can weigh: sentences they typed
 * (or queued while the agent worked), their answers joined to the agent's questions, plans they
 * approved and why they rejected one (with what they rejected), the sections of compaction
 * summaries that restate what was decided, the lines of documents they pasted, and the causes and
 * fixes the session verified. Tool output, injected context and a parent agent's briefs to its
 * subagents are not statements.
 */
import { closingQuestion } from '../nlp/text.js';
import type { ExtractMessage } from '../transcripts/types.js';
import { answersQuestion, answerTexts, clipQuestion, inlineAnswers, numberedQuestions, parseAnswerText } from './answers.js';
import { letGo } from './declined.js';
import { findLearnings, mayHoldLearning } from './learnings.js';
import { endorsesQuoted, splitPasted, writtenLines } from './pasted.js';
import { approvedNext, carriedOut, planGistText, planPassages, PROPOSED } from './plans.js';
import { mendSlips } from './slips.js';
import { summaryItems } from './summary.js';
import { originOf, placeOf, sentenceTexts, unitsOfPassage, type Passage, type Unit, type UnitSource } from './unit.js';
import { notableUrl } from './urls.js';
import { verifiedAfter } from './verified.js';

/** A typed message this long, in this many lines, is a pasted document rather than a message. */
const DOCUMENT_CHARS = 2500;
const DOCUMENT_LINES = 25;
/** A reply this short to the agent's closing question is an answer, read with its question. */
const SHORT_REPLY_WORDS = 12;
/** A reply that opens with a terse answer of at most TERSE_OPENING words gives its reason in at most this many. */
const REASONED_REPLY_WORDS = 40;
const TERSE_OPENING = 3;
/** A reply's opening that only agrees or refuses, in the languages people answer in. */
const GO_AHEAD = /^\W*(?:yes|yeah|yep|no|nope|ok|okay|sure|go|s[ií]|oui|non|ja|nein|jo|ano|ne|tak|nie)(?!\p{L})/iu;
/** A compaction summary's note that the harness spoke among the person's messages. */
const HARNESS_NOTE = /^\W*(?:system[- ]reminders?|hook (?:output|feedback|messages?)|tool results?)\b/i;
/** How much of each assistant or tool text is remembered to recognise it pasted back. */
const WRITTEN_CHARS = 20_000;

function summaryPassages(text: string): Passage[] {
  const items = summaryItems(text);
  if (!items.some((i) => i.section !== 'other')) return [{ text, source: 'summary-other' }];
  return items.flatMap((item): Passage[] => {
    if (item.section !== 'user') return [{ text: item.text.replace(/\*\*/g, ''), source: `summary-${item.section}` }];
    // "System reminders about Credo issues": the summary lists what the harness injected among the
    // person's messages; those are neither the person's words nor anything learned.
    if (HARNESS_NOTE.test(item.text)) return [];
    // "- "Work on bead X" (asking to …)": the quoted words are the person's.
    const quoted = /^["“](.+?)["”]/.exec(item.text)?.[1] ?? item.text;
    return [{ text: mendSlips(quoted), source: 'typed', marks: { restated: true } }];
  });
}

/** A brief, a spec or a README pasted in: long, or structured with headings. */
function isDocument(text: string): boolean {
  const lines = text.split('\n');
  const headings = lines.filter((l) => /^#{1,4}\s+\S/.test(l)).length;
  return (
    headings >= 2 ||
    (headings >= 1 && text.length >= 800) ||
    (text.length >= DOCUMENT_CHARS && lines.length >= DOCUMENT_LINES) ||
    (text.length >= 1500 && lines.length >= 12)
  );
}

/**
 * A short reply to the agent's closing question means nothing without it: "the detailed one". So
 * does a reply that opens with a terse answer and gives its reason after it: "MMKV. AsyncStorage was
 * too slow on older Androids".
 */
function joinedAnswer(question: string | undefined, text: string): Passage | undefined {
  if (question === undefined) return undefined;
  const reply = text.trim();
  if (reply.includes('\n') || reply.endsWith('?')) return undefined;
  const words = reply.split(/\s+/).length;
  const opening = /^[^.!?]+[.!]\s/.exec(reply)?.[0].trim();
  const short = words <= SHORT_REPLY_WORDS && answersQuestion(question, reply);
  // "Yes, go. And one thing for good: …" is a go-ahead, and what follows it stands on its own.
  const reasoned =
    !short &&
    words <= REASONED_REPLY_WORDS &&
    opening !== undefined &&
    opening.split(/\s+/).length <= TERSE_OPENING &&
    !GO_AHEAD.test(opening) &&
    answersQuestion(question, opening);
  return short || reasoned ? { text: `${clipQuestion(question)} → ${reply}`, source: 'answer', whole: true, verbatim: true } : undefined;
}

/** What a rejection turned down: the plan just proposed, or the tool call it answered. */
function rejected(messages: readonly ExtractMessage[], i: number): string | undefined {
  for (let j = i - 1; j >= 0 && j >= i - 6; j--) {
    const m = messages[j] as ExtractMessage;
    if (originOf(m) === 'plan') {
      const gist = planGistText(m.text);
      return gist === undefined ? 'the plan' : `the plan "${gist.replace(/[\s.:;,]+$/, '')}"`;
    }
    if (m.kind === 'tool_use') return m.gist ?? `the ${m.toolName ?? 'tool'} call`;
  }
  return undefined;
}

/** Causes with their fixes the assistant stated and the session then verified (a check passed, or the person confirmed). */
function learningPassages(messages: readonly ExtractMessage[], i: number, text: string): Passage[] {
  if (!mayHoldLearning(text)) return [];
  const found = findLearnings(sentenceTexts(text)).filter((l) => l.used.length === 2 && !/\b(?:I|I'm|I'll|I need|let me|we need)\b/.test(l.text));
  if (found.length === 0 || !verifiedAfter(messages, i)) return [];
  return found.map((l) => ({ text: l.text, source: 'learning', whole: true }));
}

export function unitsOf(messages: readonly ExtractMessage[]): Unit[] {
  const out: Unit[] = [];
  let turn = 0;
  let asked = new Map<number, string>();
  let question: string | undefined;
  /** What the assistant and tools wrote so far: pasted back, it is not the person's. */
  const written = new Set<string>();
  for (const [index, m] of messages.entries()) {
    const origin = originOf(m);
    if (origin === 'assistant' || origin === 'tool') for (const line of writtenLines([m.text.slice(0, WRITTEN_CHARS)])) written.add(line);
    const said: Passage[] = [];
    let replyToQuote: Passage | undefined;
    const place = placeOf(m, turn);
    switch (origin) {
      case 'typed':
      case 'queued':
      case 'feedback': {
        if (m.kind !== 'text') break;
        turn++;
        const source: UnitSource = origin === 'feedback' ? 'feedback' : 'typed';
        // What the person typed is read as they corrected it within a sentence.
        const { own, kept, quoted } = splitPasted(mendSlips(m.text), written);
        if (source === 'typed' && letGo(messages, index, own)) {
          asked = new Map();
          question = undefined;
          break;
        }
        const link = notableUrl(own);
        if (link !== undefined) said.push({ text: link, source: 'url', whole: true });
        for (const line of kept) said.push({ text: line, source, marks: { endorses: true } });
        const answered = inlineAnswers(own, asked).map((text): Passage => ({ text, source: 'answer', whole: true }));
        const joined = answered.length === 0 && source === 'typed' ? joinedAnswer(question, own) : undefined;
        asked = new Map();
        question = undefined;
        if (answered.length > 0 || joined !== undefined) {
          said.push(...answered, ...(joined === undefined ? [] : [joined]));
          break;
        }
        const rejects = source === 'feedback' ? rejected(messages, index) : undefined;
        // A message that opens by asking something scopes its restrictions to that request.
        const ownPassage: Passage = { text: own, source, asking: true, marks: { document: isDocument(own), ...(rejects !== undefined && { rejects }) } };
        said.push(ownPassage);
        if (quoted) replyToQuote = ownPassage;
        break;
      }
      case 'answer':
        said.push(...answerTexts(m.answers ?? parseAnswerText(m.text)).map((text): Passage => ({ text, source: 'answer', whole: true })));
        break;
      case 'plan':
        if (m.plan === 'approved') said.push(...planPassages(m.text, carriedOut(messages, index)));
        break;
      case 'summary':
        said.push(...summaryPassages(m.text));
        break;
      case 'instructions':
        // Injected instruction files are read by the agent every session anyway; what the assistant
        // wrote into one at the person's request is their standing rules.
        if (m.role === 'assistant') said.push({ text: m.text, source: 'instructions' });
        break;
      case 'assistant': {
        if (m.kind !== 'text') break;
        asked = numberedQuestions(m.text);
        question = asked.size === 0 ? closingQuestion(m.text) : undefined;
        const proposed = PROPOSED.exec(m.text)?.[1];
        if (proposed !== undefined && approvedNext(messages, index)) said.push(...planPassages(proposed, carriedOut(messages, index)));
        else said.push(...learningPassages(messages, index, m.text));
        // "The app is live at https://x.onrender.com": the deploy address, said once it was up.
        const live = /\b(?:live|deployed|running|available|hosted)\b/i.test(m.text) ? notableUrl(m.text) : undefined;
        if (live?.startsWith('Live at') === true) said.push({ text: live, source: 'url', whole: true });
        break;
      }
      default:
        break;
    }
    // What the person says of the agent's words they quoted: the sentences that say which part is right.
    for (const p of said) out.push(...unitsOfPassage(p, place).map((u) => (p === replyToQuote && endorsesQuoted(u.text) ? { ...u, endorses: true } : u)));
  }
  return out;
}
