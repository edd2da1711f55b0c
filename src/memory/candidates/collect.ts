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
import { answersQuestion, answerUnits, clipQuestion, inlineAnswers, numberedQuestions } from './answers.js';
import { findLearnings } from './learnings.js';
import { splitPasted, writtenLines } from './pasted.js';
import { approvedNext, carriedOut, planGistText, planUnits, PROPOSED } from './plans.js';
import { summaryItems } from './summary.js';
import { oneUnit, originOf, sentenceUnits, type Unit, type UnitSource } from './unit.js';
import { notableUrl } from './urls.js';
import { verifiedAfter } from './verified.js';

/** A typed message this long, in this many lines, is a pasted document rather than a message. */
const DOCUMENT_CHARS = 2500;
const DOCUMENT_LINES = 25;
/** A reply this short to the agent's closing question is an answer, read with its question. */
const SHORT_REPLY_WORDS = 12;
/** How much of each assistant or tool text is remembered to recognise it pasted back. */
const WRITTEN_CHARS = 20_000;

function summaryUnits(m: ExtractMessage, turn: number): Unit[] {
  const items = summaryItems(m.text);
  if (!items.some((i) => i.section !== 'other')) return sentenceUnits(m.text, 'summary-other', m, { turn, document: false, investigative: false });
  const out: Unit[] = [];
  for (const item of items) {
    if (item.section === 'user') {
      // "- "Work on bead X" (asking to …)": the quoted words are the person's.
      const quoted = /^["“](.+?)["”]/.exec(item.text)?.[1] ?? item.text;
      out.push(...sentenceUnits(quoted, 'typed', m, { turn, document: false, investigative: false }).map((u) => ({ ...u, restated: true })));
    } else {
      out.push(...sentenceUnits(item.text.replace(/\*\*/g, ''), `summary-${item.section}`, m, { turn, document: false, investigative: false }));
    }
  }
  return out;
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

/** A short reply to the agent's closing question means nothing without it: "the detailed one". */
function joinedAnswer(question: string | undefined, text: string, m: ExtractMessage, turn: number): Unit | undefined {
  if (question === undefined) return undefined;
  const reply = text.trim();
  if (reply.includes('\n') || reply.endsWith('?') || reply.split(/\s+/).length > SHORT_REPLY_WORDS || !answersQuestion(question, reply)) return undefined;
  const u = oneUnit(`${clipQuestion(question)} → ${reply}`, 'answer', m, turn);
  return u === undefined ? undefined : { ...u, text: `${clipQuestion(question)} → ${reply}` };
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
function learningUnits(messages: readonly ExtractMessage[], i: number, m: ExtractMessage, turn: number): Unit[] {
  const sentences = sentenceUnits(m.text, 'assistant', m, { turn, document: false, investigative: false });
  const found = findLearnings(sentences.map((u) => u.text)).filter((l) => l.used.length === 2 && !/\b(?:I|I'm|I'll|I need|let me|we need)\b/.test(l.content));
  if (found.length === 0 || !verifiedAfter(messages, i)) return [];
  return found.flatMap((l) => oneUnit(l.content, 'learning', m, turn) ?? []);
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
    switch (origin) {
      case 'typed':
      case 'queued':
      case 'feedback': {
        if (m.kind !== 'text') break;
        const source: UnitSource = origin === 'feedback' ? 'feedback' : 'typed';
        const { own, kept } = splitPasted(m.text, written);
        const link = notableUrl(own);
        const linkUnit = link === undefined ? undefined : oneUnit(link, 'url', m, turn);
        if (linkUnit !== undefined) out.push(linkUnit);
        for (const line of kept) out.push(...sentenceUnits(line, source, m, { turn, document: false, investigative: false }));
        const answered = inlineAnswers(own, asked, m, turn);
        const joined = answered.length === 0 && source === 'typed' ? joinedAnswer(question, own, m, turn) : undefined;
        asked = new Map();
        question = undefined;
        if (answered.length > 0 || joined !== undefined) {
          out.push(...answered, ...(joined === undefined ? [] : [joined]));
          turn++;
          break;
        }
        const units = sentenceUnits(own, source, m, { turn, document: isDocument(own), investigative: false });
        const rejects = source === 'feedback' ? rejected(messages, index) : undefined;
        // A message that opens by asking something scopes its restrictions to that request.
        const lead = units[0];
        const investigative = lead !== undefined && /\?\s*$/.test(lead.text);
        for (const u of units) out.push({ ...u, investigative: investigative || u.investigative, ...(rejects !== undefined && { rejects }) });
        turn++;
        break;
      }
      case 'answer':
        out.push(...answerUnits(m, turn));
        break;
      case 'plan':
        if (m.plan === 'approved') out.push(...planUnits(m.text, m, turn, carriedOut(messages, index)));
        break;
      case 'summary':
        out.push(...summaryUnits(m, turn));
        break;
      case 'instructions':
        // Injected instruction files are read by the agent every session anyway; what the assistant
        // wrote into one at the person's request is their standing rules.
        if (m.role === 'assistant') out.push(...sentenceUnits(m.text, 'instructions', m, { turn, document: false, investigative: false }));
        break;
      case 'assistant': {
        if (m.kind !== 'text') break;
        asked = numberedQuestions(m.text);
        question = asked.size === 0 ? closingQuestion(m.text) : undefined;
        const proposed = PROPOSED.exec(m.text)?.[1];
        if (proposed !== undefined && approvedNext(messages, index)) out.push(...planUnits(proposed, m, turn, carriedOut(messages, index)));
        else out.push(...learningUnits(messages, index, m, turn));
        // "The app is live at https://x.onrender.com": the deploy address, said once it was up.
        const live = /\b(?:live|deployed|running|available|hosted)\b/i.test(m.text) ? notableUrl(m.text) : undefined;
        if (live?.startsWith('Live at') === true) {
          const u = oneUnit(live, 'url', m, turn);
          if (u !== undefined) out.push(u);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}
