/**
 * Learnings a session established: a root cause and its fix. They may come from the assistant's
 * prose too ("The root cause was X; fixed by Y"), and a cause and the fix stated just after it
 * become one sentence.
 */
import { countTechTerms } from '../nlp/tech-terms.js';
import { isTimeBound, TIME_BOUND_IMPORTANCE } from './time-bound.js';
import { finish, MAX_CONTENT, tidy, wordCount, type Tidy } from '../nlp/tidy.js';

export interface Learning {
  text: string;
  stable: boolean;
  importance: number;
  /** Indexes of the sentences it used, so they are not read again as something else. */
  used: number[];
}

const IMPORTANCE = 0.6;
/** A fix this many sentences after a cause is the fix for it. */
const FIX_WINDOW = 2;
const MAX_SENTENCE = 300;

const CAUSE =
  /\broot[\s-]?cause\b|\b(?:problem|issue|bug|error|failure|crash|culprit|reason|cause)\s+(?:was|turned out to be|ended up being|is that)\b|\b(?:was|were|is|are)\s+(?:caused|triggered)\s+by\b|\bturn(?:s|ed)\s+out\b/;
const FIX =
  /\b(?:fixed|solved|resolved|addressed)\s+(?:it\s+|this\s+|that\s+|the\s+\w+\s+)?(?:by|with)\b|\b(?:fix|solution|workaround|remedy)\s+(?:was|is)\b|\b(?:fix|solution|workaround):/;
const HINT = /cause|problem|issue|bug|error|failure|crash|culprit|reason|turn(?:s|ed) out|fix|solv|resolv|address|solution|workaround|remedy/i;
const DOUBT = /\?|\b(?:maybe|perhaps|probably|might|could be|i think|i suspect|not sure|let me|let's see|i'll check)\b/;
const STOP = /^(?:the|a|an|it|this|that|was|is|were|are|to|of|in|on|by|with|and|or|we|i|you|root|cause|problem|issue|fix|fixed|turns|turned|out|so)$/;

function content(t: Tidy): number {
  return t.body.split(/\s+/).filter((w) => w.length > 1 && !STOP.test(w)).length;
}

function usable(t: Tidy, min = 3): boolean {
  return t.text.length > 0 && t.text.length <= MAX_SENTENCE && !t.question && !DOUBT.test(t.body) && content(t) >= min && wordCount(t.text) >= min + 1;
}

/** The fix sentence, lower-cased at the start unless it opens with a name or an identifier. */
function asClause(text: string): string {
  return /^[A-Z][a-z]/.test(text) && !/^(?:I|I'm|I've)\b/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function learning(text: string, used: number[]): Learning {
  const timeBound = isTimeBound(text);
  return { text: finish(text), stable: !timeBound, importance: timeBound ? TIME_BOUND_IMPORTANCE : IMPORTANCE, used };
}

export function findLearnings(sentences: readonly string[]): Learning[] {
  // Only sentences that name a cause or a fix are tidied: most name neither.
  if (!sentences.some((s) => HINT.test(s))) return [];
  const out: Learning[] = [];
  const taken = new Set<number>();
  const tidied = sentences.map((s) => (HINT.test(s) ? tidy(s) : undefined));
  tidied.forEach((t, i) => {
    if (t === undefined || taken.has(i) || !usable(t, 2)) return;
    const cause = CAUSE.test(t.body);
    if (!cause && !FIX.test(t.body)) return;
    if (cause && !FIX.test(t.body)) {
      for (let j = i + 1; j <= i + FIX_WINDOW && j < tidied.length; j++) {
        const fix = tidied[j];
        if (fix === undefined || !usable(fix, 2) || !FIX.test(fix.body) || CAUSE.test(fix.body)) continue;
        const joined = `${t.text.replace(/[\s.!;:,]+$/, '')}; ${asClause(fix.text)}`;
        if (joined.length > MAX_CONTENT - 1) break;
        taken.add(i).add(j);
        out.push(learning(joined, [i, j]));
        return;
      }
    }
    // A fix on its own says little unless it names what was changed.
    if (!cause && countTechTerms(t.text) === 0) return;
    taken.add(i);
    out.push(learning(t.text, [i]));
  });
  return out;
}

/**
 * Whether any sentence of `text` could name a cause or a fix: the whole text tidied as each sentence
 * would be holds every match a sentence does. Most of an agent's messages name neither, and the
 * sentence split findLearnings needs is the costly part.
 */
export function mayHoldLearning(text: string): boolean {
  const body = tidy(text).body;
  return CAUSE.test(body) || FIX.test(body);
}

/** Names a cause or a fix ("the fix was to bump node to 20"): what the person established. */
export function statesLearning(text: string): boolean {
  const body = text.toLowerCase();
  return (CAUSE.test(body) || FIX.test(body)) && !DOUBT.test(body);
}
