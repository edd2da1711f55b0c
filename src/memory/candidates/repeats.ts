/**
 * How often a statement was said again in the session, and which statements a later one took
 * back. Restating is a sign a thing matters; a later statement on the same slot with another
 * value or the other polarity (slots.ts) means the earlier one no longer holds.
 */
import { changeable } from '../merge.js';
import { slotKey, slotOf } from '../slots.js';
import { stem, words } from '../text.js';
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

/**
 * Indexes of units a later unit of the session reverses: the same slot said again with the
 * opposite polarity, or with another value where the value is a choice (a tool of a kind).
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
  return out;
}
