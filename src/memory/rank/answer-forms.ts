/**
 * How the person's reply to the agent's question reads: a go-ahead that decides nothing, a choice
 * left to the agent, a chore of the repository said for this time, or a task of its own instead
 * of one of the options put. Each reads the question and the reply ("question → reply"), never a
 * word of a transcript.
 */
import type { Candidate } from '../candidates/index.js';
import type { Token } from '../nlp/index.js';
import { firstWord } from '../nlp/mood.js';
import * as L from '../nlp/lexicon.js';
import { hasPhrase } from './clause-forms.js';

/**
 * The agent's offer, anywhere in its question, to do one of the repository's chores next: "Ready
 * to test it - want me to commit this change?", "… nebo chceš, abych pushnul přímo na main?" (in
 * other languages git's verbs are borrowed and inflected: pushnul, mergen, pushear).
 */
const OFFERS_CHORE = new RegExp(
  String.raw`\b(?:want me to|would you like me to|shall i|should i)\s+(?:\w+\s+){0,2}?(?:${[...L.CHORE_VERBS, 'merge'].join('|')})\b|(?:veux-tu que je|voulez-vous que je|tu veux que je|quieres que|soll ich|chce(?:š|te),? abych|要我|需要我)\s*(?:\S+\s+){0,3}?(?:commit|push|pull|rebase|merg)\p{L}*`,
  'iu',
);
/** A bare no. */
const NO = new Set(`no nope nah ne nie non nein não нет いいえ 不 不要`.split(/\s+/));
/**
 * The reply is a go-ahead and nothing more, past its openers: "Go for it", "ok, go ahead", "great,
 * do it". It accepts what the agent put forward before its question, which it does not carry.
 */
function goAheadReply(answer: readonly Token[]): boolean {
  const from = firstWord(answer);
  const words = answer.slice(from + praiseBefore(answer.slice(from))).filter((t) => t.kind === 'word');
  return L.GO_AHEAD_REPLIES.has(words.map((t) => t.lower).join(' '));
}

/** Words of praise for what the agent put forward: "good plan", "looks great", "nice work". */
const PRAISED = new Set(
  `great nice awesome cool perfect good excellent lovely sweet fine solid brilliant plan idea call job work looks sounds very really a that this`.split(/\s+/),
);
/** Praise clauses at most this long ("good plan", "that looks really good"). */
const PRAISE_WORDS = 4;

/** Tokens of the clauses of praise a reply opens with ("good plan, go for it"), up to and with their punctuation. */
function praiseBefore(tokens: readonly Token[]): number {
  let at = 0;
  for (;;) {
    const end = tokens.findIndex((t, i) => i >= at && t.kind === 'punctuation');
    if (end < 0) return at;
    const clause = tokens.slice(at, end);
    if (clause.length === 0 || clause.length > PRAISE_WORDS || !clause.every((t) => PRAISED.has(t.lower))) return at;
    at = end + 1;
  }
}
/** Parts of speech that name what a question is about ("Do you want the dark theme?"; not "What do you think?"). */
const NAMING = new Set(['NOUN', 'PROPN', 'ADJ', 'NUM']);

/** Words of an answer that sends the agent to look for itself ("Check code.", "look at the docs"). */
const LOOK_ANSWER_WORDS = 4;

/**
 * An answer that decides nothing: a bare yes or no to a question that names nothing of its own
 * ("What do you think? → okay", "Chceš to? → Ne"), which agrees with or refuses what the answer does
 * not carry; a bare yes or no to an either-or question ("… the Profile pattern, or a new approach? →
 * Yes"); a short "check the code" that sends the agent to find out. Words of another language are
 * not tagged: a question of one or two of them names nothing.
 */
function answersNothing(asked: readonly Token[], answer: readonly Token[]): boolean {
  const words = answer.filter((t) => t.kind === 'word');
  if (words.length === 0) return false;
  if (words.length <= LOOK_ANSWER_WORDS && L.LOOK_VERBS.has(words[0]?.lower ?? '')) return true;
  if (!words.every((t) => L.YES.has(t.lower) || NO.has(t.lower))) return false;
  const its = asked.filter((t) => t.kind === 'word');
  if (its.some((t) => t.lower === 'or')) return true;
  return its.every((t) => t.pos === 'X') ? its.length <= 2 : !its.some((t) => NAMING.has(t.pos));
}

/** What the reading of an answer gives the kind (all false for any other candidate). */
export interface AnswerReading {
  /** Leaves the choice open or only lets the agent go on: "you decide", "→ go for it", "→ yes" to an offer. */
  deferral: boolean;
  /** Answers the agent's offer to commit, push or merge next. */
  choreOffer: boolean;
  /** The reply is a command of its own, not one of the options the question put. */
  replyTask: boolean;
}

/**
 * `reply`: the answer's own tokens (after the arrow); `asking`, `at` and `verb`: the reply read as a
 * question, where its command starts, and that command's verb.
 */
export function readAnswer(c: Candidate, reply: readonly Token[], read: { asking: boolean; at: number; verb: string | undefined }): AnswerReading {
  if (c.source !== 'answer') return { deferral: false, choreOffer: false, replyTask: false };
  const words = reply.filter((t) => t.kind === 'word' || t.kind === 'number');
  const lower = reply.map((t) => t.lower);
  const arrow = c.sentence.tokens.findIndex((t) => t.text === '→');
  // "Want me to check the runs? → yes": a go-ahead for the agent's next step, no decision of the
  // person's; "What do you think? → okay" agrees with what the answer does not carry, and so does
  // "→ go for it" whatever was asked.
  const goesAhead =
    (L.OFFER.test(c.text) && words.length > 0 && words.every((t) => L.YES.has(t.lower))) ||
    goAheadReply(reply) ||
    (arrow >= 0 && answersNothing(c.sentence.tokens.slice(0, arrow), reply));
  // "Should I commit these and push? → yes, but check master first": how to go on with the
  // repository's chores, said for this time.
  const choreOffer = arrow >= 0 && OFFERS_CHORE.test(c.text.slice(0, c.text.indexOf('→')));
  // "Ready for the next tweaks? → Remember your training": the reply's command names no option the
  // question put ("Who is the audience? → grant reviewers" picks one), or takes up the agent's offer.
  const asked = new Set(arrow >= 0 ? c.sentence.tokens.slice(0, arrow).map((t) => t.lemma) : []);
  return {
    deferral: hasPhrase(lower, L.DEFERRALS) || hasPhrase(lower, L.UNSURE) || read.asking || goesAhead,
    choreOffer,
    replyTask: arrow >= 0 && read.at >= 0 && (L.OFFER.test(c.text) || !asked.has(read.verb ?? '')),
  };
}
