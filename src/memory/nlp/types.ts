/**
 * The language analysis the extractor needs, behind one small interface: sentences of tokens with
 * part of speech, lemma and negation. wink-nlp answers for English; other languages get script-aware
 * splitting without parts of speech, so they never crash anything and still yield sentences.
 */

/** Universal Dependencies coarse tags (wink-nlp's), plus X for "not analysed". */
export type Pos =
  'ADJ' | 'ADP' | 'ADV' | 'AUX' | 'CCONJ' | 'DET' | 'INTJ' | 'NOUN' | 'NUM' | 'PART' | 'PRON' | 'PROPN' | 'PUNCT' | 'SCONJ' | 'SYM' | 'VERB' | 'SPACE' | 'X';

export type TokenKind = 'word' | 'number' | 'url' | 'email' | 'punctuation' | 'symbol' | 'emoji' | 'other';

export interface Token {
  text: string;
  lower: string;
  pos: Pos;
  lemma: string;
  /** Under a negation ("don't commit": commit is negated). */
  negated: boolean;
  kind: TokenKind;
  stop: boolean;
}

export interface Sentence {
  text: string;
  tokens: Token[];
  /** False when the text was not analysed as English: tokens carry no parts of speech. */
  english: boolean;
}
