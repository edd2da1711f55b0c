/**
 * Every place a person states something, as units the classifier can weigh: sentences they typed
 * (or queued while the agent worked), their answers to the agent's questions, plans they approved
 * and why they rejected one, and the sections of compaction summaries that restate what was
 * decided. Tool output, injected context and a parent agent's briefs to its subagents are not units.
 */
import { analyze, type Sentence } from '../nlp/index.js';
import type { MessageOrigin } from '../transcripts/types.js';
import { summaryItems, type SummarySection } from './compact-summary.js';
import { proseBlocks } from './sentences.js';
import type { ExtractMessage } from './types.js';
import { notableUrl } from './urls.js';

export type UnitSource = 'typed' | 'feedback' | 'answer' | 'plan' | 'plan-body' | 'url' | 'instructions' | 'assistant' | `summary-${SummarySection}`;

export interface Unit {
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
}

/** A typed message this long, in this many lines, is a pasted document rather than a message. */
const DOCUMENT_CHARS = 2500;
const DOCUMENT_LINES = 25;
/** A question longer than this is clipped in an answer's memory. */
const QUESTION_MAX = 160;

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

interface Context {
  turn: number;
  document: boolean;
  investigative: boolean;
}

/** `claude "/skill-name prompt…"` or `/command args`: the prompt is the person's; the command is not. */
const COMMAND_LEAD = /^(?:claude\s+)?["']?\/[\w:-]+\s+/i;

function sentenceUnits(text: string, source: UnitSource, m: ExtractMessage, ctx: Context): Unit[] {
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

function joinSentences(list: Sentence[]): Sentence | undefined {
  return list.reduce<Sentence | undefined>(
    (all, s) => (all === undefined ? s : { text: `${all.text} ${s.text}`, tokens: [...all.tokens, ...s.tokens], english: all.english && s.english }),
    undefined,
  );
}

function oneUnit(text: string, source: UnitSource, m: ExtractMessage, turn: number): Unit | undefined {
  const sentence = joinSentences(analyze(text.replace(/\s+/g, ' ').trim()));
  if (sentence === undefined) return undefined;
  return { text: sentence.text, source, sentence, messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }), bullet: false, document: false, investigative: false, turn };
}

/** `"Question?"="Answer"` pairs, as Claude Code writes AskUserQuestion results. */
export function parseAnswerText(text: string): { question: string; answer: string }[] {
  const out: { question: string; answer: string }[] = [];
  const re = /"((?:[^"\\]|\\.)+)"\s*=\s*"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ question: m[1] ?? '', answer: m[2] ?? '' });
  return out;
}

function clipQuestion(q: string): string {
  const flat = q.replace(/\s+/g, ' ').trim();
  return flat.length <= QUESTION_MAX ? flat : `…${flat.slice(flat.length - QUESTION_MAX + 1)}`;
}

function answerUnits(m: ExtractMessage, turn: number): Unit[] {
  const pairs = m.answers ?? parseAnswerText(m.text);
  return pairs.flatMap((p) => oneUnit(`${clipQuestion(p.question)} → ${p.answer.replace(/\s*\((?:recommended|default)\)\s*/gi, ' ').trim()}`, 'answer', m, turn) ?? []);
}

/** An approved plan: its title and gist as one decision, and the rules stated inside it. */
function planUnits(text: string, m: ExtractMessage, turn: number): Unit[] {
  const gist = planGist(text, m, turn);
  // The plan's first section (its summary or context) says what it is about; the rest is detail.
  const second = text.search(/\n#{2,3}\s(?![\s\S]*?^#\s)/m) >= 0 ? nthHeading(text, 2) : -1;
  const ctx = { turn, document: false, investigative: false };
  const lead = second < 0 ? [] : sentenceUnits(text.slice(0, second), 'plan-body', m, ctx).map((u) => ({ ...u, lead: true }));
  const body = sentenceUnits(second < 0 ? text : text.slice(second), 'plan-body', m, ctx);
  return [...(gist === undefined ? [] : [gist]), ...lead, ...body];
}

/** Offset of the n-th markdown heading of level 2 or 3, or -1. */
function nthHeading(text: string, n: number): number {
  const re = /^#{2,3}\s/gm;
  for (let i = 1, m = re.exec(text); m !== null; i++, m = re.exec(text)) if (i === n) return m.index;
  return -1;
}

function planGist(text: string, m: ExtractMessage, turn: number): Unit | undefined {
  const lines = text.split('\n').map((l) => l.trim());
  const title = (lines.find((l) => /^#\s/.test(l)) ?? '').replace(/^#+\s*(?:plan:?\s*)?/i, '').trim();
  const after = (heading: RegExp): string | undefined => {
    const at = lines.findIndex((l) => /^#{2,4}\s/.test(l) && heading.test(l));
    if (at < 0) return undefined;
    return lines.slice(at + 1).find((l) => l !== '' && !/^#/.test(l) && !/^(?:[-*|`>]|\d+[.)])/.test(l));
  };
  const gist = after(/summary|overview|goal/i) ?? after(/strategy|approach|solution|decision/i) ?? after(/context/i);
  return gist === undefined && title === '' ? undefined : oneUnit(`Approved plan: ${[title, gist].filter((x) => x !== undefined && x !== '').join(' — ')}`, 'plan', m, turn);
}

/** Codex and others propose plans in the assistant's text; the person's next words approve them. */
const PROPOSED = /<proposed_plan>([\s\S]*?)(?:<\/proposed_plan>|$)/;
const APPROVAL = /^(?:please\s+)?(?:implement|go ahead|proceed|approved?|lgtm|looks good|sounds good|yes|yep|ok(?:ay)?|do it|let'?s do it|let'?s go|ship it|execute|build it|start)\b/i;

function approvedNext(messages: readonly ExtractMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j] as ExtractMessage;
    const origin = originOf(m);
    if (origin === 'typed' || origin === 'queued') return m.text.trim().split(/\s+/).length <= 12 && APPROVAL.test(m.text.trim());
  }
  return false;
}

/** The text of one section: the lines after the first heading matching `heading`. */


function summaryUnits(m: ExtractMessage, turn: number): Unit[] {
  const items = summaryItems(m.text);
  if (!items.some((i) => i.section !== 'other')) return sentenceUnits(m.text, 'summary-other', m, { turn, document: false, investigative: false });
  const out: Unit[] = [];
  for (const item of items) {
    if (item.section === 'user') {
      // "- "Work on bead X" (asking to …)": the quoted words are the person's.
      const quoted = /^["“](.+?)["”]/.exec(item.text)?.[1] ?? item.text;
      out.push(...sentenceUnits(quoted, 'typed', m, { turn, document: false, investigative: false }));
    } else {
      const u = oneUnit(item.text.replace(/\*\*/g, ''), `summary-${item.section}`, m, turn);
      if (u !== undefined) out.push(u);
    }
  }
  return out;
}

/** A brief, a spec or a README pasted in: long, or structured with headings. */
function isDocument(text: string): boolean {
  const lines = text.split('\n');
  const headings = lines.filter((l) => /^#{1,4}\s+\S/.test(l)).length;
  return headings >= 2 || (headings >= 1 && text.length >= 800) || (text.length >= DOCUMENT_CHARS && lines.length >= DOCUMENT_LINES) || (text.length >= 1500 && lines.length >= 12);
}

/**
 * A long sentence's clauses, each analysed on its own: "I renamed the folder X, whereas this is
 * really a personal kb" says two things, and either may be the one that lasts.
 */
const CLAUSE_BREAK = /\s*(?:;|—|–|\s-\s|,\s+(?:but|and|so|as|whereas|because|since|which)\s+|\s+(?:whereas|because)\s+|\s+as\s+(?=(?:our|we|the|my|it|this)\b)|,\s+(?=(?:it|this|that|we|i|you|they)\s)|\s+(?:then|than)\s+(?=(?:i|we)\b)|\s+so\s+(?!that\b)(?=(?:just|we|i|you|please)\b))\s*/i;
const CLAUSE_MIN_WORDS = 2;
const SPLIT_FROM_WORDS = 16;

export function clausesOf(u: Unit): Unit[] {
  if (u.text.split(/\s+/).length < SPLIT_FROM_WORDS) return [];
  const parts = u.text.split(CLAUSE_BREAK).map((p) => p.trim()).filter((p) => p.split(/\s+/).length >= CLAUSE_MIN_WORDS);
  if (parts.length < 2) return [];
  return parts.flatMap((p) => {
    const sentence = joinSentences(analyze(p));
    return sentence === undefined ? [] : [{ ...u, text: sentence.text, sentence }];
  });
}

/** "1. Which stack?" … in the assistant's text: its numbered questions. */
function numberedQuestions(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*]\s*)?\**(\d{1,2})[.)]\**\s+(.+\?)\**\s*$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) out.set(Number(m[1]), m[2].replace(/\*\*/g, '').trim());
  }
  return out;
}

/** A reply that answers the assistant's numbered questions by number ("1. X 2. Y"): question/answer pairs. */
function inlineAnswers(reply: string, questions: Map<number, string>, m: ExtractMessage, turn: number): Unit[] {
  if (questions.size < 2) return [];
  const parts = reply.split(/(?:^|\s)(\d{1,2})[.)]\s*/).slice(1);
  const out: Unit[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const q = questions.get(Number(parts[i]));
    const a = (parts[i + 1] ?? '').trim();
    if (q === undefined || a === '') continue;
    const u = oneUnit(`${clipQuestion(q)} → ${a}`, 'answer', m, turn);
    if (u !== undefined) out.push(u);
  }
  return out.length >= 2 ? out : [];
}

export function unitsOf(messages: readonly ExtractMessage[]): Unit[] {
  const out: Unit[] = [];
  let turn = 0;
  let asked = new Map<number, string>();
  for (const [index, m] of messages.entries()) {
    const origin = originOf(m);
    switch (origin) {
      case 'typed':
      case 'queued':
      case 'feedback': {
        if (m.kind !== 'text') break;
        const source: UnitSource = origin === 'feedback' ? 'feedback' : 'typed';
        const link = notableUrl(m.text);
        const linkUnit = link === undefined ? undefined : oneUnit(link, 'url', m, turn);
        if (linkUnit !== undefined) out.push(linkUnit);
        const answered = inlineAnswers(m.text, asked, m, turn);
        asked = new Map();
        if (answered.length > 0) {
          out.push(...answered);
          turn++;
          break;
        }
        const units = sentenceUnits(m.text, source, m, { turn, document: isDocument(m.text), investigative: false });
        // A message that opens by asking something scopes its restrictions to that request.
        const lead = units[0];
        const investigative = lead !== undefined && /\?\s*$/.test(lead.text);
        for (const u of units) out.push({ ...u, investigative: investigative || u.investigative });
        turn++;
        break;
      }
      case 'answer':
        out.push(...answerUnits(m, turn));
        break;
      case 'plan':
        if (m.plan === 'approved') out.push(...planUnits(m.text, m, turn));
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
        const proposed = PROPOSED.exec(m.text)?.[1];
        if (proposed !== undefined && approvedNext(messages, index)) out.push(...planUnits(proposed, m, turn));
        else out.push(...sentenceUnits(m.text, 'assistant', m, { turn, document: false, investigative: false }));
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
