/**
 * One statement once: the same thing said again in the session (a restatement, the compaction
 * summary's bullet that holds it, the summary's copy of a typed message) is one candidate. The
 * person's own words win over a summary's, and of two of theirs the fuller one.
 */
import { containment, contentTerms } from './overlap.js';
import type { Unit } from './unit.js';

/** Content words a statement needs before it can be matched with another by content. */
const MIN_TERMS = 3;
/** Share of the smaller statement's content words the other must hold to say the same. */
const SAME = 0.8;

/** Statements that give different numbers ("port 5432", "port 5433") are different statements. */
function numbersDiffer(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const na = [...a].filter((t) => /\d/.test(t));
  const nb = [...b].filter((t) => /\d/.test(t));
  return na.length > 0 && nb.length > 0 && (na.some((t) => !b.has(t)) || nb.some((t) => !a.has(t)));
}

/**
 * One word swapped for another ("deploy the frontend app…" / "…the backend app…", "always" /
 * "never"), or a negation one has and the other lacks, makes another statement however many
 * words they share.
 */
function swapped(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const onlyA = [...a].filter((t) => !b.has(t)).length;
  const onlyB = [...b].filter((t) => !a.has(t)).length;
  return onlyA >= 1 && onlyB >= 1 && Math.min(onlyA, onlyB) <= 1 && Math.abs(onlyA - onlyB) <= 1;
}

const NEGATION = /\b(?:not|never|no|don't|dont|doesn't|nicht|nie|kein\w*|pas|jamais|nunca|nada|não)\b|不|没|别|ない|ません/i;
const negationDiffers = (a: Unit, b: Unit): boolean => NEGATION.test(a.text) !== NEGATION.test(b.text);

/**
 * Content words the smaller statement has that the other lacks: a restatement or a summary that
 * holds a statement adds words, it does not have others. Two lines that open the same way ("keep in
 * mind for future sessions: X", "…: Y") differ in what they say.
 */
function ownWords(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  return [...small].filter((t) => !large.has(t)).length;
}

/** The person's own words; what they approved or had written down; what a summary or the agent restated. */
const PERSON = new Set<Unit['source']>(['typed', 'feedback', 'answer']);
const APPROVED = new Set<Unit['source']>(['plan', 'plan-body', 'instructions']);

function rank(u: Unit): number {
  if (u.restated === true) return 2;
  if (PERSON.has(u.source)) return 3;
  return APPROVED.has(u.source) ? 2 : 1;
}

/** True when `a` should be kept over `b`: the person's words, then the fuller, then the first said. */
function better(a: Unit, b: Unit, ai: number, bi: number): boolean {
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  if (a.text.length !== b.text.length) return a.text.length > b.text.length;
  return ai < bi;
}

/** Indexes of the units to drop because another unit of the session says the same. */
export function collapsed(units: readonly Unit[]): { dropped: Set<number> } {
  const sets = units.map((u) => contentTerms(u.text));
  const dropped = new Set<number>();
  for (let i = 0; i < units.length; i++) {
    if (dropped.has(i)) continue;
    const a = sets[i] as Set<string>;
    if (a.size < MIN_TERMS) continue;
    for (let j = i + 1; j < units.length; j++) {
      if (dropped.has(j)) continue;
      const b = sets[j] as Set<string>;
      if (
        b.size < MIN_TERMS ||
        containment(a, b) < SAME ||
        ownWords(a, b) > 1 ||
        numbersDiffer(a, b) ||
        swapped(a, b) ||
        negationDiffers(units[i] as Unit, units[j] as Unit)
      )
        continue;
      const drop = better(units[i] as Unit, units[j] as Unit, i, j) ? j : i;
      dropped.add(drop);
      if (drop === i) break;
    }
  }
  return { dropped };
}
