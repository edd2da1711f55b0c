/**
 * Trouble the session fixed is not a current problem: a report of something going wrong ("the
 * /orders endpoint returns 500", "hay un bug en el calendario") is left out when the agent then
 * changed files and a check passed or the person said it works. A lesson said as a rule ("never
 * swallow errors") is not a report and stays.
 */
import { DEONTIC, standingIn } from '../nlp/lexicon.js';
import { hasStandingMarker } from '../nlp/markers-i18n.js';
import type { ExtractMessage } from '../transcripts/types.js';
import type { Unit } from './unit.js';
import { verifiedAfter } from './verified.js';

/**
 * Words that report something going wrong now: errors, failures, crashes, bugs (not "issue" or
 * "problem", which also name a tracker's tickets and plans), in the languages people write in,
 * and HTTP server errors.
 */
const TROUBLE =
  /\b(?:errors?|fail(?:s|ed|ing|ure)|crash(?:es|ed|ing)?|broken|bugs?|exceptions?|(?:doesn't|does not|don't|isn't|is not) work(?:ing)?|not working|(?:returns?|returning|gives?|throws?|status|http|got)\s+(?:an?\s+)?5\d\d|fehler|kaputt|funktioniert nicht|geht nicht|erreur|plante|marche pas|ne fonctionne pas|falla|fallo|roto|no funciona|erro|quebrado|não funciona)\b|バグ|エラー|動かない|报错|错误|崩溃|不工作/i;
/** How far after the report the fix and its check may come. */
const WINDOW = 40;

function reportsTrouble(u: Unit): boolean {
  const lower = u.sentence.tokens.map((t) => t.lower);
  if (standingIn(u.text) || hasStandingMarker(u.text) || lower.some((w) => DEONTIC.has(w))) return false;
  return TROUBLE.test(u.text);
}

/** After message `i`, files were changed and the change was then verified. */
function fixedAfter(messages: readonly ExtractMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length && j <= i + WINDOW; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind === 'tool_use' && (m.paths?.length ?? 0) > 0) return verifiedAfter(messages, j);
  }
  return false;
}

/** Indexes of the person's reports of trouble that the session then fixed. */
export function fixedIndexes(units: readonly Unit[], messages: readonly ExtractMessage[]): Set<number> {
  const at = new Map(messages.map((m, i) => [m.id, i]));
  const out = new Set<number>();
  units.forEach((u, i) => {
    if (u.source !== 'typed' || !reportsTrouble(u)) return;
    const k = at.get(u.messageId);
    if (k !== undefined && fixedAfter(messages, k)) out.add(i);
  });
  return out;
}
