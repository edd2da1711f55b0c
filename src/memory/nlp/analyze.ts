/** Text → analysed sentences. The only module that knows which library does the analysis. */
import { isEnglish, looksForeign, showsEnglish } from './language.js';
import { wink } from './model.js';
import type { ItemSentence, ItsFunction } from 'wink-nlp';
import type { Pos, Sentence, Token, TokenKind } from './types.js';

const KINDS = new Set<TokenKind>(['word', 'number', 'url', 'email', 'punctuation', 'symbol', 'emoji']);
const sentenceSegmenter = new Intl.Segmenter('und', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Code spans, URLs, paths, dotted names ("solve.rb", ".env.example", "Phoenix.LiveViewTest") and a
 * command's options ("pytest -q", whose "q." reads as an initial) are one word each, and so are the
 * Latin abbreviations ("e.g.", "etc."): the sentence splitter would break them at their dots, or
 * not end a sentence after them. They are swapped for placeholders that read as one proper noun,
 * and swapped back in the output.
 */
const PROTECTED =
  /\b(?:[eE]\.[gG]|[iI]\.[eE]|etc|vs|cf|approx|incl|esp|viz)\.(?=[\s,;:)]|$)|`[^`\n]+`|\bhttps?:\/\/\S+|(?:~|\.{1,2})?\/?[\w@-]+(?:[./][\w@*-]+)+\/?|(?<![\w])\.[\w-]+(?:\.[\w-]+)*|\b[A-Za-z][\w]*(?:-[\w]+)+\b|(?<![\w-])--?[A-Za-z][\w-]*/g;
const PLACEHOLDER = /Zqx(\d+)qZ/g;

function protect(text: string): { masked: string; saved: string[] } {
  const saved: string[] = [];
  const masked = text.replace(PROTECTED, (m) => {
    // A plain sentence end ("done.") is not a dotted name; an abbreviation's dot is not an end.
    if (/^[\w-]+\.$/.test(m) && !/^(?:[eE]\.[gG]|[iI]\.[eE]|etc|vs|cf|approx|incl|esp|viz)\.$/.test(m)) return m;
    saved.push(m);
    return `Zqx${saved.length - 1}qZ`;
  });
  return { masked, saved };
}

function restore(text: string, saved: string[]): string {
  return saved.length === 0 ? text : text.replace(PLACEHOLDER, (_, i: string) => saved[Number(i)] ?? '');
}

/** Chat spellings the model does not know, read as what they stand for (the text keeps them). */
const CHAT: Record<string, string> = {
  shud: 'should',
  shld: 'should',
  dont: "don't",
  wont: "won't",
  cant: "can't",
  doesnt: "doesn't",
  isnt: "isn't",
  didnt: "didn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  u: 'you',
  ur: 'your',
  pls: 'please',
  plz: 'please',
  wanna: 'want to',
  gonna: 'going to',
  gotta: 'got to',
  idk: "I don't know",
  im: "I'm",
  ive: "I've",
  thx: 'thanks',
};
/** A word of prose only: `curl -u`, `ls -im`, `$u` and `a/u` are command text, never rewritten. */
const CHAT_WORD = new RegExp(`(?<![-\\w./\\\\$@:=])(?:${Object.keys(CHAT).join('|')})\\b(?![-/=:@])`, 'gi');

/** A double quote typed for the apostrophe of a negation: "DON\"T EDIT ANYTHING" is "DON'T …". */
const QUOTED_NOT = /\b((?:do|does|did|is|are|was|were|has|have|had|ca|could|would|should|wo|must|need)n)"(t)\b/gi;

function english(raw: string): Sentence[] {
  const { nlp, its } = wink();
  // Chat spellings are English ones: German "im", French "u" are words of their own. "im" is read as
  // "I'm" only beside an English word of its own ("im not sure"), never in "Tests immer im Ordner tests".
  const typed = raw.replace(QUOTED_NOT, "$1'$2");
  const chat = (w: string): string => (w.toLowerCase() === 'im' && !showsEnglish(typed) ? w : (CHAT[w.toLowerCase()] ?? w));
  const { masked, saved } = protect(looksForeign(typed) ? typed : typed.replace(CHAT_WORD, chat));
  const doc = nlp.readDoc(masked);
  const out: Sentence[] = [];
  doc.sentences().each((s: ItemSentence) => {
    const tokens = s.tokens();
    const value = tokens.out(its.value) as string[];
    const pos = tokens.out(its.pos) as string[];
    // The lemma helper's declared signature differs from what `out` accepts; it works at run time.
    const lemma = tokens.out(its.lemma as unknown as ItsFunction<string>) as string[];
    const neg = tokens.out(its.negationFlag) as boolean[];
    const type = tokens.out(its.type) as string[];
    const stop = tokens.out(its.stopWordFlag) as boolean[];
    const list: Token[] = value.map((v, i) => {
      const text = restore(v, saved);
      const isSaved = text !== v;
      const kind = isSaved ? (/^https?:/.test(text) ? 'url' : 'word') : ((type[i] ?? 'other') as TokenKind);
      return {
        text,
        lower: text.toLowerCase(),
        pos: isSaved ? 'PROPN' : ((pos[i] ?? 'X') as Pos),
        lemma: isSaved ? text.toLowerCase() : (lemma[i] ?? text).toLowerCase(),
        negated: neg[i] === true,
        kind: KINDS.has(kind) ? kind : 'other',
        stop: stop[i] === true,
      };
    });
    out.push({ text: restore(s.out(), saved), tokens: list.flatMap(splitContraction), english: true });
  });
  return out;
}

/** The lite model keeps "I'm", "we're", "it's" whole: split into the pronoun and its verb. */
const CONTRACTION = /^(i|you|we|they|it|that|there|he|she|what|who)(['’])(m|re|ve|d|s|ll)$/i;
const CONTRACTED: Record<string, string> = { m: 'be', re: 'be', ve: 'have', d: 'would', s: 'be', ll: 'will' };

function splitContraction(t: Token): Token[] {
  const m = CONTRACTION.exec(t.text);
  if (m === null) return [t];
  const [, who = '', mark = "'", rest = ''] = m;
  return [
    { ...t, text: who, lower: who.toLowerCase(), pos: 'PRON', lemma: who.toLowerCase(), stop: true },
    { ...t, text: `${mark}${rest}`, lower: `'${rest.toLowerCase()}`, pos: 'AUX', lemma: CONTRACTED[rest.toLowerCase()] ?? rest.toLowerCase(), stop: true },
  ];
}

/** ICU segmentation: sentence boundaries for every script, words for scripts without spaces. */
function other(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    const sentence = segment.trim();
    if (sentence === '') continue;
    const tokens: Token[] = [];
    for (const w of wordSegmenter.segment(sentence)) {
      const t = w.segment.trim();
      if (t === '') continue;
      const kind: TokenKind = w.isWordLike === true ? (/^\d+$/.test(t) ? 'number' : 'word') : /^\p{P}+$/u.test(t) ? 'punctuation' : 'symbol';
      tokens.push({ text: t, lower: t.toLowerCase(), pos: 'X', lemma: t.toLowerCase(), negated: false, kind, stop: false });
    }
    out.push({ text: sentence, tokens, english: false });
  }
  return out;
}

/** A "?" inside a URL's query or a path ("/tides?date=…"), the "!" of a macro ("println!, …", "vec![…]"): no sentence ends there. */
const INNER_MARK = /\?(?=[^\s"')\]])|(?<=\w)!(?=[,;:([\w])/;
const INNER_MARKS = new RegExp(INNER_MARK.source, 'g');
const HELD: Readonly<Record<string, string>> = { '?': '\uFF1F', '!': '\uFF01' };

const putBack = (s: string): string => s.replaceAll(HELD['?'] as string, '?').replaceAll(HELD['!'] as string, '!');

/** The sentences of a prose text (one paragraph or line; markup already removed). */
export function analyze(text: string): Sentence[] {
  if (!INNER_MARK.test(text)) return isEnglish(text) ? english(text) : other(text);
  // Read with the inner marks held as full-width ones, then given back in every text.
  const held = text.replace(INNER_MARKS, (m) => HELD[m] ?? m);
  return (isEnglish(text) ? english(held) : other(held)).map((s) => ({
    ...s,
    text: putBack(s.text),
    tokens: s.tokens.map((t) => ({ ...t, text: putBack(t.text), lower: putBack(t.lower), lemma: putBack(t.lemma) })),
  }));
}
