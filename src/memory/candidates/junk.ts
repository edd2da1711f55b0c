/**
 * Generic junk, dropped before anything is scored: what is never a memory whoever says it. Only
 * closed classes decide here (acknowledgements, bare continuations, interjections); everything
 * else goes to the ranker, which was fitted to tell the rest apart.
 */
import type { Sentence } from '../nlp/index.js';
import type { Unit } from './unit.js';

/** Words of acknowledgement and of moving the work along: a message of only these says nothing to keep. */
const ACK = new Set(
  `ok okay k kk yes yeah yep yup ya sure fine alright right good great nice cool perfect awesome excellent amazing wonderful thanks
  thank thx ty you please pls plz go ahead on continue proceed next do it that this carry keep going lgtm looks sounds correct exactly
  done agreed agree approve approved works worked working now again retry try let's lets us start begin resume and so well oh hmm
  wow lol haha yay cheers no nope not yet wait stop hold sorry oops got understood see i it's its is all the a`
    .trim()
    .split(/\s+/),
);
/** Fewer words than this carry no statement ("go on", "commit"). */
const MIN_WORDS = 2;

function wordsOf(s: Sentence): string[] {
  return s.tokens.filter((t) => t.kind === 'word' || t.kind === 'number').map((t) => t.lower.replace(/[’']/g, "'"));
}

/** Acknowledgements, bare continuations and one-word replies: never a memory. */
export function isChatter(u: Unit): boolean {
  if (u.source === 'answer' || u.source === 'plan' || u.source === 'url' || u.source === 'learning') return false;
  const words = wordsOf(u.sentence);
  if (words.length < MIN_WORDS) return true;
  return words.every((w) => ACK.has(w));
}

/** A summary's note of a question the person never answered: nobody decided it. */
const UNANSWERED =
  /\b(?:unanswered|open question|(?:not|never) (?:yet )?answered|has(?:n't| not) (?:yet )?answered|awaiting (?:an |the user's |their )?answer)\b/i;

/** Whether a line notes a question nobody answered ("Open question: remove the NAT gateways (not yet answered)"). */
export const notesUnanswered = (text: string): boolean => UNANSWERED.test(text);

export function isUnansweredNote(u: Unit): boolean {
  return u.source.startsWith('summary-') && notesUnanswered(u.text);
}
