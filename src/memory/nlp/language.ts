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
const LATIN = /[a-z]/i;
const LETTER = /\p{L}/u;

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
