/** Whether two records name the same piece of work: the content words they share. */
import { terms } from '../nlp/text.js';

const cache = new Map<string, Set<string>>();
const CACHE_MAX = 5000;

function termSet(text: string): Set<string> {
  let t = cache.get(text);
  if (t === undefined) {
    if (cache.size >= CACHE_MAX) cache.clear();
    t = new Set(terms(text).filter((w) => w.length > 1 && !/^\d+$/.test(w)));
    cache.set(text, t);
  }
  return t;
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
}

/**
 * Names of a piece of work in a tracker: "spotter-gqc.7", "PROJ-123", "#45". Two records that name
 * the same one are about the same work, however differently they describe it.
 */
const WORK_ID = /\b[a-z][a-z0-9]*-[a-z0-9]+\.\d+\b|\b[A-Z][A-Z0-9]+-\d+\b|(?<![\w&])#\d+\b/g;
const workIds = (text: string): string[] => text.match(WORK_ID) ?? [];

/**
 * `a` is covered by `b`: `b` names the work `a` names, or most of `a`'s content words are in `b` (at
 * least two, or all of a short item's), its closing condition ("… once testing is done") aside. A
 * commit "add retry to the S3 upload" covers the task "retry S3 uploads"; "feat: … (spotter-gqc.7)"
 * covers "spotter-gqc.7 (blocked): launch the review …".
 */
/**
 * A pending item's closing condition says when, not what: "switch the lookup to X once testing is
 * done". Not "when" or "after", which as often say what the work is ("fix the crash when the list is
 * empty").
 */
const WHEN = /[\s,]+(?:once|as soon as)\s+[^,;]+$/i;

export function covers(b: string, a: string, share = 0.6): boolean {
  const ids = workIds(a);
  if (ids.length > 0 && ids.some((id) => b.includes(id))) return true;
  const what = a.replace(WHEN, '');
  const ta = termSet(termSet(what).size >= 2 ? what : a);
  const tb = termSet(b);
  if (ta.size === 0) return false;
  const n = shared(ta, tb);
  return n >= Math.min(2, ta.size) && n / ta.size >= share;
}

/** A number a record states as a value: "max_attempts 5", "port 5433", "30 days"; not a step's ("phase 2", "step 3") or a work id's. */
const VALUE = /(?<![\w.#-])(?<!\b(?:phase|step|part|stage|task|item|milestone|round|sprint|issue|pr|v)\s?)\d+(?:\.\d+)?(?![\w.-]*\d)/gi;
const valuesOf = (text: string): string[] => text.replace(WORK_ID, ' ').match(VALUE) ?? [];

/**
 * `b` says the work `a` names as well as `a` does: it covers it and states every value `a` states. A
 * commit "retry failed thumbnails with exponential backoff" does not say the task "retry policy
 * (max_attempts 5, exponential backoff)" as well: the task keeps the value.
 */
export function saysAsWell(b: string, a: string): boolean {
  if (!covers(b, a)) return false;
  const stated = new Set(valuesOf(b));
  return valuesOf(a).every((v) => stated.has(v));
}

/**
 * How much of the person's account of open work a later built record must name to close it: the
 * person says it loosely ("next on the not-yet list: the PDF version of the VAT report"), a commit
 * tersely ("Add PDF export of the VAT report"), so less than the agent's records need of each other,
 * once the words that only say it is open ("next", "not yet", "pending") are set aside.
 */
const SAID_SHARE = 0.4;
const STATUS = /\b(?:next|not|yet|still|pending|todo|to-do|open|remaining|left|now|then|later|up)\b/gi;

/** The work the person said was open (`said`) is named by a record of work built (`built`). */
export const closes = (built: string, said: string): boolean => covers(built, said.replace(STATUS, ' '), SAID_SHARE);

/** The same item said twice, tersely or at length: the shorter's words are mostly in the longer. */
export function sameWork(a: string, b: string): boolean {
  const ta = termSet(a);
  const tb = termSet(b);
  if (ta.size === 0 || tb.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase();
  const n = shared(ta, tb);
  return n >= Math.min(2, ta.size, tb.size) && n / Math.min(ta.size, tb.size) >= 0.6 && n / Math.max(ta.size, tb.size) >= 0.3;
}
