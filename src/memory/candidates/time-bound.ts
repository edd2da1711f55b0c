/**
 * Time-bound statements ("the staging DB is down today", "for now, skip the e2e tests") are true
 * for a while only: they are kept, but decay and rank below anything stable.
 */

/** The most a time-bound memory is worth. */
export const TIME_BOUND_IMPORTANCE = 0.3;

const WEEKDAY = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`;

const TIME_BOUND = new RegExp(
  String.raw`\b(?:today|tonight|tomorrow|yesterday|this (?:week|weekend|morning|afternoon|evening|sprint|month|time|session)|right now|at the moment|atm|currently|for now|for the time being|temporarily|at present|for the moment|until (?:tomorrow|next week|further notice|the (?:release|migration|freeze|fix)|${WEEKDAY})|(?:until|till|til) [\w\s]{1,30}? (?:is|are) (?:fixed|back|resolved|merged|done)|(?:on|next|last) ${WEEKDAY}|for (?:this|the current) (?:task|session|pr|branch|ticket|release))\b`,
  'i',
);

export function isTimeBound(text: string): boolean {
  return TIME_BOUND.test(text);
}
