/**
 * A slip, and an instruction taken back, keep only their final version: a message that corrects
 * ("sorry, I meant port 5433", "no wait, staging-2, not staging", "actually, keep the old layout
 * after all", "算了，换成 PR-AUC") takes back the earlier statement of the person it is about, the
 * one of the last few messages that shares the most content words with it. The markers are the
 * closed class of words people open a correction with, in the languages they write in.
 */
import { containment, contentTerms, weightedShared } from './overlap.js';
import type { Unit } from './unit.js';

/** Said only when correcting oneself: one shared content word is enough. */
const STRONG =
  /\b(?:i meant|meant|my bad|my mistake|brain fart|scratch that|after all|finalement|al final|i was wrong|me he liado|me equivoqu[eé]|quise decir|quer[ií]a decir|je voulais dire|je me suis tromp[ée]|ich meinte|mein fehler|vertippt|quis dizer)\b|算了|不对|说错|打错|写错|搞错|我是说|間違え|訂正|やっぱり/i;
/** Also said otherwise ("sorry to ask", "actually, the docs say…"): two shared content words are needed. */
const WEAK =
  /^(?:\W*\w+\W+){0,3}?\W*(?:actually|wait|no|non|nope|instead|rather|hmm|en fait|finalement|plutôt|eigentlich|doch|warte|nein|lieber|en realidad|mejor|espera|いや|不|还是)\b|\b(?:sorry|oops|perd[oó]n[ae]?|pardon|entschuldigung|desculpa)\b|抱歉|不好意思|すみません|ごめん/i;
/** What the correction says no to: "staging-2, not staging", "nicht 4xx", "pas 24". */
const NOT = String.raw`\b(?:not|nicht|pas|no|non|não|kein|nunca|never)\s+`;
const REFUSED = new RegExp(String.raw`${NOT}\**([\p{L}\p{N}][\p{L}\p{N}_.-]*)`, 'giu');
/**
 * A correction inside the sentence it corrects: "tickets expire 24 h before the event — sorry, I
 * meant 2 h, not 24", "the lookup hits the live API, no wait, use the staging mirror". The slip is
 * what comes before the separator, the fix what follows the marker.
 */
const IN_SENTENCE =
  /^(?<slip>.*?[\p{L}\p{N}].*?)\s*(?:[—–,;:，；]+|\s-)\s*(?:(?:sorry|oops|pardon|perd[oó]n|entschuldigung|desculpa|no wait|err)[\s,]+)?(?:i meant(?: to say)?|je voulais dire|quise decir|quer[ií]a decir|ich meinte|quis dizer|不对，?我是说|我是说|(?<=[—–,;:\s])(?:no wait|wait no|scratch that|nein warte|non attends|no espera)(?=[\s,:]))\s*[:,]?\s*(?<fix>.+)$/isu;
/** The fix's own "not X" clause, up to the sentence's end. */
const REFUSED_CLAUSE = new RegExp(String.raw`[\s,;]*${NOT}\S.*$`, 'iu');
/** A number, also where it stands against a CJK word ("24小时"). */
const NUMBER = /(?<![A-Za-z\d_.-])\d+(?:[.,]\d+)?(?![A-Za-z\d_-])/gu;

/** Three words, or four CJK characters: more than the apology a correction opens with. */
const saysSomething = (s: string): boolean => s.trim().split(/\s+/).length >= 3 || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{4}/u.test(s);
const escaped = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The sentence as corrected: the number or the word the fix says no to is replaced in the slip by
 * the fix's ("tickets expire 2 h before the event"); when neither can be found, the fix alone if it
 * says enough, else the sentence as it was.
 */
function mendSentence(sentence: string): string {
  const m = IN_SENTENCE.exec(sentence);
  const slip = m?.groups?.slip;
  const fix = m?.groups?.fix;
  // "sorry, I meant port 5433" corrects an earlier message (slipIndexes), not itself.
  if (slip === undefined || fix === undefined || !saysSomething(slip)) return sentence;
  const end = /[.!?。！？]\s*$/u.exec(fix)?.[0] ?? '';
  const core = fix
    .slice(0, fix.length - end.length)
    .replace(REFUSED_CLAUSE, '')
    .trim();
  const refused = [...fix.matchAll(REFUSED)].map((r) => (r[1] ?? '').replace(/[._-]+$/, ''));
  const was: string[] = slip.match(NUMBER) ?? [];
  const now: string[] = core.match(NUMBER) ?? [];
  const old = refused.find((z) => was.includes(z)) ?? (was.length === 1 ? was[0] : undefined);
  if (now.length === 1 && old !== undefined && old !== now[0]) {
    return `${slip.replace(new RegExp(`(?<![A-Za-z\\d_.-])${escaped(old)}(?![A-Za-z\\d_-])`), now[0] ?? old)}${end}`;
  }
  const word = refused.find((z) => new RegExp(`\\b${escaped(z)}\\b`, 'iu').test(slip));
  const first = /^[\p{L}\p{N}][\p{L}\p{N}_.-]*/u.exec(core)?.[0];
  if (word !== undefined && first !== undefined) return `${slip.replace(new RegExp(`\\b${escaped(word)}\\b`, 'iu'), first)}${end}`;
  return core.split(/\s+/).length >= 3 ? `${core}${end}` : sentence;
}

/** A text with each correction inside a sentence made: only the corrected version is read. */
/** A correction marker said inside a sentence, after what it corrects: "… staging, no wait, staging-2". */
const IN_SENTENCE_MARK = /[—–,;:]\s*(?:no wait|wait no|scratch that|nein warte|non attends|no espera)\b/i;

export function mendSlips(text: string): string {
  if (!STRONG.test(text) && !IN_SENTENCE_MARK.test(text)) return text;
  return text
    .split('\n')
    .map((line) =>
      line
        .split(/(?<=[.!?。！？])(\s+)/u)
        .map((part, i) => (i % 2 === 0 ? mendSentence(part) : part))
        .join(''),
    )
    .join('\n');
}

/** Share of a slip's content words a summary's line must hold to be restating it. */
const RESTATED = 0.7;
/** How many of the person's earlier messages a correction can reach back to. */
const REACH = 3;
const RETRACTABLE = new Set<Unit['source']>(['typed', 'feedback', 'answer']);

/** The message opens as a correction of what was just said or done: "actually no, plain sh", "sorry, I meant 5433". */
export const correcting = (text: string): boolean => STRONG.test(text) || WEAK.test(text);

/** Shared content words an earlier statement needs to be the one taken back (Infinity: not a correction). */
function needed(text: string, earlier: ReadonlySet<string>, refused: ReadonlySet<string>): number {
  if (STRONG.test(text)) return 1;
  if (!WEAK.test(text)) return Infinity;
  return [...refused].some((t) => earlier.has(t)) ? 1 : 2;
}

const numbers = (text: string): Set<string> => new Set(text.match(/(?<![\p{L}\d_-])\d+(?:[.,]\d+)?(?![\p{L}\d_-])/gu) ?? []);

/** Each gives a number the other does not: the value changed. */
function numberSwapped(said: string, earlier: string): boolean {
  const now = numbers(said);
  const before = numbers(earlier);
  return [...before].some((x) => !now.has(x)) && [...now].some((x) => !before.has(x));
}

/** Indexes of the earlier statements the session's corrections take back. */
export function slipIndexes(units: readonly Unit[]): Set<number> {
  const out = new Set<number>();
  const messageText = new Map<string, string>();
  for (const u of units) if (RETRACTABLE.has(u.source) && u.restated !== true) messageText.set(u.messageId, `${messageText.get(u.messageId) ?? ''} ${u.text}`);
  const order = [...messageText.keys()];
  for (const [k, id] of order.entries()) {
    const text = messageText.get(id) ?? '';
    if (k === 0 || (!STRONG.test(text) && !WEAK.test(text))) continue;
    const said = contentTerms(text);
    const refused = contentTerms([...text.matchAll(REFUSED)].map((m) => m[1] ?? '').join(' '));
    const reach = new Set(order.slice(Math.max(0, k - REACH), k));
    // The statement it is most about; of equals, the latest (a slip is corrected right after it).
    let best = 0;
    let found: number | undefined;
    units.forEach((u, i) => {
      if (!reach.has(u.messageId) || !RETRACTABLE.has(u.source) || u.restated === true) return;
      const earlier = contentTerms(u.text);
      // Another number for the same thing ("max_attempts 3" → "put back 5") is one shared word more.
      const n = weightedShared(said, earlier) + (numberSwapped(text, u.text) ? 1 : 0);
      if (n >= needed(text, earlier, refused) && n >= best) [best, found] = [n, i];
    });
    if (found !== undefined) for (const i of [found, ...restatements(units, found, id)]) out.add(i);
  }
  return out;
}

/** What a compaction summary said of the slip between it and its correction: taken back with it. */
function restatements(units: readonly Unit[], slip: number, correction: string): number[] {
  const terms = contentTerms((units[slip] as Unit).text);
  const out: number[] = [];
  for (let i = slip + 1; i < units.length && (units[i] as Unit).messageId !== correction; i++) {
    const u = units[i] as Unit;
    if ((u.source.startsWith('summary-') || u.restated === true) && containment(terms, contentTerms(u.text)) >= RESTATED) out.push(i);
  }
  return out;
}
