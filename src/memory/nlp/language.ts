/**
 * Whether a text is English enough for the English model. Others (Czech, Chinese, Japanese…) are
 * split by ICU's segmenter (Intl.Segmenter) and analysed without parts of speech.
 */

const FUNCTION_WORDS = new Set(
  (
    'the a an to of in on at for with and or but is are was were be been it this that these those i we you he she they my our your ' +
    "not no do does did don't doesn't can should must will would have has had if then so as from by use using please before after when all any each every always never only also just into about than more there what which who how why"
  ).split(' '),
);
/**
 * Function words of French, Spanish, German and Portuguese that are not also English words: a
 * sentence with more of these than of English's is not English, diacritics or not.
 */
const FOREIGN_WORDS = new Set(
  (
    'le les des du et est une qui pour avec dans sur pas ne je tu il nous vous cette ces aux très mais ' +
    'el los las y con para por del una muy pero como cuando que de ' +
    'der das und ist nicht mit ein eine einen für zu auf ich du wir sie den dem bitte wenn oder auch ' +
    'os um uma não com em'
  ).split(' '),
);
/** English function words that are also common words of those languages ("a", "on", "in"…). */
const SHARED_WORDS = new Set('a an in on as i no do so use me can is am'.split(' '));
const LATIN = /[a-z]/i;

/**
 * More function words of another Latin-script language than of English: French, Spanish, German or
 * Portuguese that isEnglish lets through (it only asks for one English function word, and "a" or
 * "on" are words of those languages too). Kept apart from isEnglish, whose answer the fitted ranker
 * reads as a feature.
 */
export function looksForeign(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  let theirs = 0;
  let ours = 0;
  for (const w of words) {
    if (FOREIGN_WORDS.has(w)) theirs++;
    else if (FUNCTION_WORDS.has(w) && !SHARED_WORDS.has(w)) ours++;
  }
  return theirs >= 2 && theirs > ours;
}
const LETTER = /\p{L}/u;

/** German words spelt as English function words: "was" (what), "will" (wants). */
const GERMAN_TOO = new Set(['was', 'will']);

/** Holds an English function word no other language here shares: "not", "the", "this" (not "in", "a", "so", "was"). */
export function showsEnglish(text: string): boolean {
  return (text.toLowerCase().match(/[a-z']+/g) ?? []).some((w) => FUNCTION_WORDS.has(w) && !SHARED_WORDS.has(w) && !GERMAN_TOO.has(w));
}

export function isEnglish(text: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    letters++;
    if (LATIN.test(ch)) latin++;
  }
  if (letters === 0) return true; // numbers and symbols: nothing language-specific to miss
  if (latin / letters < 0.9) return false;
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  // Plain ASCII letters: English, or a language written without its diacritics, which the English
  // model will read poorly but harmlessly. Letters with diacritics must show an English function word.
  if (latin === letters && !/[^\x00-\x7f]/.test(text)) return true;
  if (words.length <= 5 && latin === letters) return true;
  return words.some((w) => FUNCTION_WORDS.has(w));
}
