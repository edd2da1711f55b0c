/**
 * A suggestion the person floated and let go: said tentatively ("maybe the amount should be cast to
 * float first"), argued against in the agent's next reply ("I'd leave it as BigDecimal: …"), and
 * not pressed after it (the person's next message moves on). It is not what the session decided,
 * and not a memory. A suggestion said firmly, or pressed again, stands whatever the agent replied.
 */
import { terms } from '../nlp/text.js';
import type { ExtractMessage } from '../transcripts/types.js';
import { originOf } from './unit.js';

/** Opens with a hedge: "maybe …", "perhaps we could …", "what about …", "I wonder if …". */
const TENTATIVE =
  /^\W*(?:maybe|perhaps|possibly|what about|how about|i wonder (?:if|whether)|would it (?:make sense|be better)|could we|might be (?:better|worth))\b/i;

/**
 * The agent's reply opens by arguing against it: "I'd leave it as …", "I wouldn't …", "No need: …",
 * "I'd recommend keeping …". Its first sentence only: an agreement that weighs a caveat later is
 * still an agreement.
 */
const ARGUES_AGAINST =
  /^\W*(?:(?:i'd|i would|i'll|i’d)\s+(?:leave|keep|stick with|hold off|avoid|not|rather not|recommend (?:against|keeping|leaving|sticking)|advise against|skip)\b|i\s+(?:wouldn't|would not|wouldn’t|don't think|do not think|don’t think)\b|(?:no need|not needed|not necessary|unnecessary|that's not (?:needed|necessary)|it's not (?:needed|necessary))\b)/i;

/** The person presses it: "no, do it", "do it anyway", "I still think …". */
const PRESSES = /^\W*(?:no\b|nope\b|still\b|i still\b|do it anyway|please do|just do|i insist)|\b(?:anyway|regardless|all the same)\b/i;

/** Content words the person's next message must share with the suggestion to be pressing it. */
const PRESSED_TERMS = 2;

const said = (m: ExtractMessage): boolean => {
  const o = originOf(m);
  return (o === 'typed' || o === 'queued') && m.kind === 'text';
};

/** The person's tentative suggestion at message `i` was argued against by the agent and let go. */
export function letGo(messages: readonly ExtractMessage[], i: number, text: string): boolean {
  if (!TENTATIVE.test(text)) return false;
  let reply: ExtractMessage | undefined;
  let j = i + 1;
  for (; j < messages.length; j++) {
    const m = messages[j] as ExtractMessage;
    if (said(m)) break;
    if (reply === undefined && originOf(m) === 'assistant' && m.kind === 'text') reply = m;
  }
  if (reply === undefined || !ARGUES_AGAINST.test(reply.text)) return false;
  const next = messages[j];
  if (next === undefined) return true;
  if (PRESSES.test(next.text)) return false;
  const own = new Set(terms(text));
  return terms(next.text).filter((w) => own.has(w)).length < PRESSED_TERMS;
}
