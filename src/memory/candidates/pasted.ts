/**
 * The agent's words pasted back by the person are not the person's: lines the assistant (or a
 * tool) wrote earlier in the session, quoted lines (`> …`, a `---` fenced excerpt), and the block
 * after a lead that gives them to the agent ("you wrote this earlier:", "this is what you told
 * me:") or to a tool ("clippy on my machine says:", "getting this on staging:"). A quoted line
 * the person then endorses ("the first two are right and stay") is theirs.
 */
import { looksLikeOutput } from './output-lines.js';

/** A lead line that gives what follows to the agent: "you wrote / said / told me …:", ending on a colon. */
const LEAD =
  /(?:\byou(?:'ve| have)?\s+(?:just\s+|already\s+)?(?:wrote|written|said|told|suggested|proposed|gave|printed|output|generated|came up with|summari[sz]ed)\b|\bdu\b.*\b(?:geschrieben|gesagt|vorgeschlagen)\b|\b(?:tu as|vous avez)\s+(?:\S+\s+)?(?:écrit|dit|proposé)\b|\b(?:escribiste|dijiste|me diste|propusiste)\b|你.{0,4}(?:写|说|给)|(?:あなた|君)が?.{0,6}(?:書|言)).*[:：]\s*$/i;
/** A lead line that gives what follows to a tool: "X says:", "getting this:", "me sale:", "zeigt:". */
const OUTPUT_LEAD =
  /\b(?:says|prints|printed|shows|outputs|returns|gives|getting|i get|i got|i see|seeing|complains|fails with|errors? with|me sale|sale esto|dice|sagt|zeigt|bekomme|kommt|affiche|dit|j'ai)\b[^:]{0,60}:\s*$|(?:出る|出ます|出た|报错|显示|输出)[^:：]{0,20}[:：]\s*$/i;
const QUOTE = /^\s*>\s?/;
const CLOSED_QUOTE = /^\s*["“„«「].*["”“»」]\s*$/;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const BULLET = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/;
/** An endorsement of quoted lines: "right", "keep", "stay", "correct", in the person's own words. */
const ENDORSE =
  /\b(?:right|correct|keep|stay|stays|true|accurate|stimm\w*|behalt\w*|correct[se]?|gard\w*|bien|correct[oa]s?|mant[eé]n\w*|bleib\w*)\b|正しい|对的|没错|保留/i;
const NUMBER: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  zwei: 2,
  drei: 3,
  deux: 2,
  trois: 3,
  dos: 2,
  tres: 3,
  两: 2,
  二: 2,
  三: 3,
};

export interface Split {
  /** The person's own text, quoted lines taken out. */
  own: string;
  /** Quoted lines the person endorsed: theirs now. */
  kept: string[];
  /** Whether the message quoted the agent's words at all. */
  quoted: boolean;
}

/** "Correct that", "keep it": the verb with the quoted text as its object asks for a change. */
const CORRECT_IT = /\b(?:correct|keep)\s+(?:that|this|it|them)\b/i;
/** Quoted lines named by their place: "the first two", "both", "the last one". */
const BY_PLACE = /\b(?:first|ersten|premi\w*|primer\w*|both|all|beide|alle|tous|todos|todas|last)\b|前|最初の|全部/i;

/**
 * A sentence of the person's, said after quoting the agent, that says in its own words which part
 * is right: "keep the MSW handlers, that part's right". One that names the lines by their place
 * ("the first two are right") says nothing alone: the lines it names are kept instead.
 */
export const endorsesQuoted = (sentence: string): boolean => ENDORSE.test(sentence) && !BY_PLACE.test(sentence) && !CORRECT_IT.test(sentence);

const norm = (s: string): string => s.replace(QUOTE, '').replace(BULLET, '').replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** A line the assistant or a tool wrote before: whole, or each of its sentences. */
function wroteEarlier(flat: string, earlier: ReadonlySet<string>): boolean {
  if (flat.length < 20) return false;
  if (earlier.has(flat)) return true;
  const sentences = flat.split(/(?<=[.!?])\s+/).filter((x) => x.length >= 20);
  return sentences.length > 1 && sentences.every((x) => earlier.has(x));
}

/** Which of `n` quoted lines an endorsement names: "the first two", "both", "the last one". */
function named(own: string, n: number): number[] {
  if (!ENDORSE.test(own)) return [];
  const first = /\b(?:first|ersten|premi\w*|primer\w*)\s+(\w+)|(?:前|最初の)\s*(\d|两|二|三)/i.exec(own);
  if (first !== null) {
    const word = (first[1] ?? first[2] ?? '').toLowerCase();
    const k = Number(word) || NUMBER[word] || 1;
    return [...Array(Math.min(k, n)).keys()];
  }
  if (/\b(?:both|all|beide|alle|tous|todos|todas)\b|全部/i.test(own)) return [...Array(n).keys()];
  if (/\blast\b/i.test(own)) return n > 0 ? [n - 1] : [];
  return [];
}

/** The person's text split from what they pasted of the agent's; `earlier`: what the assistant and tools wrote before. */
export function splitPasted(text: string, earlier: ReadonlySet<string>): Split {
  const lines = text.split('\n');
  const quoted = new Set<number>();
  let fenced = false;
  let handed = false;
  let gap = false;
  lines.forEach((line, i) => {
    if (RULE.test(line)) {
      fenced = !fenced;
      quoted.add(i);
      return;
    }
    const flat = norm(line);
    if (line.trim() === '') {
      gap = handed && quoted.size > 0;
      return;
    }
    // The handed-over block runs on past a blank line only while what follows still looks pasted.
    if (gap && !looksLikeOutput(line) && !/^\s/.test(line) && !QUOTE.test(line)) handed = false;
    gap = false;
    if (fenced || QUOTE.test(line) || handed || wroteEarlier(flat, earlier)) {
      quoted.add(i);
      // A quotation in quotation marks ends with its closing mark.
      if (handed && CLOSED_QUOTE.test(line)) handed = false;
    } else if (LEAD.test(line) || OUTPUT_LEAD.test(line)) handed = true;
  });
  if (quoted.size === 0) return { own: text, kept: [], quoted: false };
  const ownLines = lines.filter((l, i) => !quoted.has(i) && !(LEAD.test(l) && i < lines.length - 1));
  const own = ownLines.join('\n');
  const content = lines.filter((l, i) => quoted.has(i) && !RULE.test(l) && l.trim() !== '');
  const kept = named(own, content.length).flatMap((k) => {
    const line = content[k];
    return line === undefined ? [] : [line.replace(QUOTE, '').replace(BULLET, '').trim()];
  });
  return { own, kept, quoted: true };
}

/** Lines the assistant and tools wrote, normalised as splitPasted compares them. */
export function writtenLines(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts)
    for (const line of t.split(/\n|(?<=[.!?])\s+/)) {
      const flat = norm(line);
      if (flat.length >= 20) out.add(flat);
    }
  return out;
}
