/**
 * The person's answers to the agent's questions: AskUserQuestion results, and replies that answer the
 * assistant's numbered questions by number. Each answer is one unit, "question → answer".
 */
import { contentTerms, shared } from './overlap.js';

/** A question longer than this is read as its last sentence in an answer's memory. */
const QUESTION_MAX = 160;

/** `"Question?"="Answer"` pairs, as Claude Code writes AskUserQuestion results. */
export function parseAnswerText(text: string): { question: string; answer: string }[] {
  const out: { question: string; answer: string }[] = [];
  const re = /"((?:[^"\\]|\\.)+)"\s*=\s*"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ question: m[1] ?? '', answer: m[2] ?? '' });
  return out;
}

/**
 * The question an answer answers, whole: its last sentence when it runs long (a preamble before the
 * question says nothing the answer needs). Never cut inside a sentence.
 */
export function clipQuestion(q: string): string {
  const flat = q.replace(/\s+/g, ' ').trim();
  if (flat.length <= QUESTION_MAX) return flat;
  const sentences = flat.split(/(?<=[.!?:])\s+(?=[A-Z"'“(*])/);
  const asked = [...sentences].reverse().find((x) => x.includes('?')) ?? sentences[sentences.length - 1] ?? flat;
  return asked.trim();
}

/** AskUserQuestion's answers, each as "question → answer" (an option's "(recommended)" off). */
export function answerTexts(pairs: readonly { question: string; answer: string }[]): string[] {
  return pairs.map((p) => `${clipQuestion(p.question)} → ${p.answer.replace(/\s*\((?:recommended|default)\)\s*/gi, ' ').trim()}`);
}

/** "1. Which stack?" … in the assistant's text: its numbered questions. */
export function numberedQuestions(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*]\s*)?\**(\d{1,2})[.)]\**\s+(.+\?)\**\s*$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) out.set(Number(m[1]), m[2].replace(/\*\*/g, '').trim());
  }
  return out;
}

/** A reply that answers the assistant's numbered questions by number ("1. X 2. Y"): "question → answer" each. */
export function inlineAnswers(reply: string, questions: Map<number, string>): string[] {
  if (questions.size < 2) return [];
  const parts = reply.split(/(?:^|\s)(\d{1,2})[.)]\s*/).slice(1);
  const out: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const q = questions.get(Number(parts[i]));
    const a = (parts[i + 1] ?? '').trim();
    if (q === undefined || a === '') continue;
    out.push(`${clipQuestion(q)} → ${a}`);
  }
  return out.length >= 2 ? out : [];
}

/** A reply shaped as a choice: an option's letter or number, yes/no, "both", "the first one". */
const CHOICE =
  /^\W*(?:\(?[a-h1-9]\)?[.):]?(?:\s|$)|option\s+\w+|(?:yes|yeah|yep|no|nope|both|neither|either|none|all|the (?:first|second|third|last|former|latter)|s[ií]|oui|non|ja|nein|はい|いいえ|是|不)\b)/i;
/** A reply of at most this many words is read as an answer whatever it says. */
const TERSE_WORDS = 3;

/**
 * Whether a reply answers the agent's question, or moves on to something else: a choice's shape,
 * a terse reply, or a reply sharing a content word with the question.
 */
export function answersQuestion(question: string, reply: string): boolean {
  if (CHOICE.test(reply) || reply.trim().split(/\s+/).length <= TERSE_WORDS) return true;
  return shared(contentTerms(question), contentTerms(reply)) > 0;
}
