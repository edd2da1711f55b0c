/**
 * How often a statement was said again in the session, and which statements a later one took
 * back. Restating is a sign a thing matters; a later statement on the same slot with another
 * value or the other polarity (store/slots.ts) means the earlier one no longer holds.
 */
import { changeable } from '../store/merge.js';
import { slotKey, slotOf } from '../store/slots.js';
import { stem, words } from '../nlp/text.js';
import type { Unit } from './unit.js';

/** Content words that stand for a statement when comparing it with others. */
const STOP = new Set(
  'the a an and or but to of in on at for with by from is are was were be been it this that these those we i you they he she my our your their me us them not no do does did have has had will would should can could just also then so as if when'.split(
    ' ',
  ),
);
const SAME_SHARE = 0.6;
const SAME_MIN = 3;

function termSet(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => w.length > 2 && !STOP.has(w))
      .map(stem),
  );
}

/** For each unit, how many units of other messages share most of its content words. */
export function repeatCounts(units: readonly Unit[]): number[] {
  const sets = units.map((u) => termSet(u.text));
  const index = new Map<string, number[]>();
  sets.forEach((s, i) => {
    for (const t of s) {
      const list = index.get(t);
      if (list === undefined) index.set(t, [i]);
      else list.push(i);
    }
  });
  return sets.map((s, i) => {
    if (s.size < SAME_MIN) return 0;
    const shared = new Map<number, number>();
    for (const t of s) for (const j of index.get(t) ?? []) if (j !== i) shared.set(j, (shared.get(j) ?? 0) + 1);
    let n = 0;
    for (const [j, k] of shared) {
      const other = sets[j] as Set<string>;
      if ((units[j] as Unit).messageId !== (units[i] as Unit).messageId && k >= SAME_MIN && k / Math.max(s.size, other.size) >= SAME_SHARE) n++;
    }
    return n;
  });
}

/** Sources whose statements the person can take back by saying otherwise later. */
const RETRACTABLE = new Set<Unit['source']>(['typed', 'feedback', 'answer']);
const SLOT_MAX_CHARS = 240;

/** Words that mark a correction of what was said before: "actually no, use spaces, never tabs". */
const CORRECTION = new Set(['actually', 'instead', 'rather', 'nope', 'no', 'wait', 'scratch']);
const NOUN = new Set(['NOUN', 'PROPN']);

/** Nouns a statement says no to ("never tabs", "no Docker here", "not npm"). */
function refused(u: Unit): Set<string> {
  const t = u.sentence.tokens;
  return new Set(t.filter((x, i) => NOUN.has(x.pos) && (x.negated || ['never', 'no', 'not'].includes(t[i - 1]?.lower ?? ''))).map((x) => x.lemma));
}

/** A correction ("actually no, … never tabs") takes back an earlier statement of the session that asked for what it now refuses. */
function corrected(units: readonly Unit[], out: Set<number>): void {
  units.forEach((later, j) => {
    if (!RETRACTABLE.has(later.source) || !later.sentence.tokens.some((t) => CORRECTION.has(t.lower))) return;
    const no = refused(later);
    if (no.size === 0) return;
    for (let i = 0; i < j; i++) {
      const earlier = units[i] as Unit;
      if (!RETRACTABLE.has(earlier.source) || earlier.messageId === later.messageId || earlier.sentence.tokens.some((t) => t.negated)) continue;
      if (earlier.sentence.tokens.some((t) => NOUN.has(t.pos) && no.has(t.lemma))) out.add(i);
    }
  });
}

/**
 * Indexes of units a later unit of the session reverses: the same slot said again with the
 * opposite polarity, or with another value where the value is a choice (a tool of a kind), or a
 * correction that refuses what the earlier one asked for.
 */
export function reversedIndexes(units: readonly Unit[]): Set<number> {
  const latest = new Map<string, { i: number; value: string; changeable: boolean }[]>();
  const out = new Set<number>();
  units.forEach((u, i) => {
    if (!RETRACTABLE.has(u.source) || u.text.length > SLOT_MAX_CHARS || !u.sentence.english) return;
    const slot = slotOf(u.text);
    if (slot === undefined) return;
    const key = slotKey(slot);
    const earlier = latest.get(key) ?? [];
    for (const e of earlier) {
      if (e.value === slot.value || (units[e.i] as Unit).messageId === u.messageId) continue;
      const flipped = e.value.slice(1) === slot.value.slice(1) && e.value[0] !== slot.value[0];
      if (flipped || changeable(slot)) out.add(e.i);
    }
    latest.set(key, [...earlier, { i, value: slot.value, changeable: changeable(slot) }]);
  });
  corrected(units, out);
  return out;
}
