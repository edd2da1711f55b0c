/**
 * A cause and its fix the agent states in one breath ("The root cause was X; fixed by Y"). Only
 * the plain statement of both counts, never a guess: the builder keeps it once a check passed
 * after it and the person did not dispute it.
 */

const CAUSE =
  /\broot[\s-]?cause\b|\b(?:problem|issue|bug|error|failure|crash|culprit)\s+(?:was|turned out to be)\b|\b(?:was|were)\s+(?:caused|triggered)\s+by\b/i;
const FIX =
  /\b(?:fixed|solved|resolved)\s+(?:it\s+|this\s+|that\s+)?(?:by|with)\b|\b(?:the\s+)?(?:fix|solution)\s+(?:was|is)\b|\bfix:|\bso I\s+(?:changed|added|removed|replaced|moved|set)\b/i;
const DOUBT = /\?|\b(?:maybe|perhaps|probably|might|could be|i think|i suspect|not sure|likely|possibly|let me|i'll)\b/i;
const MAX = 300;

/** The sentence (or two) that names a cause and its fix, if the text has one. */
export function causeAndFix(text: string): string | undefined {
  if (!CAUSE.test(text) || !FIX.test(text)) return undefined;
  const sentences = text
    .replace(/\*\*|`/g, '')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)]|#+)\s*/, '').trim())
    .filter((s) => s !== '');
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] ?? '';
    if (!CAUSE.test(s) || DOUBT.test(s)) continue;
    const next = sentences[i + 1];
    const both = FIX.test(s) ? s : next !== undefined && FIX.test(next) && !DOUBT.test(next) ? `${s} ${next}` : undefined;
    if (both !== undefined && both.length <= MAX) return both;
  }
  return undefined;
}
