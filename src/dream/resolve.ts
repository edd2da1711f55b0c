/**
 * Finished things leave. A problem the person reported that a later message of the project says is
 * fixed, and a plan a later message drops, become history: archived with the message that ended
 * them (still searchable, restorable), no longer recalled as current. Only problems and plans are
 * looked at: a rule or a fact is not "finished" by being mentioned.
 */
import type { Memory } from '../api/memory.js';
import { DEONTIC, type EpisodeStore, namespaceOf, RELATIVE_TIME, standingIn, terms, TROUBLE, words } from '../memory/index.js';
import type { Plan } from './plan.js';

/** Share of a memory's content words a later message must use to be about the same thing. */
const ABOUT = 0.6;
const LOOK_AT = 8;
/** The words of a problem being over, and of a plan being given up. */
const FIXED = new Set(['fixed', 'resolved', 'solved', 'works', 'working']);
const DROPPED = new Set(['drop', 'dropped', 'scrap', 'scrapped', 'abandon', 'abandoned', 'cancel', 'cancelled', 'canceled', 'shelve', 'shelved']);
const DROPPED_PHRASES = [/\bnot going to\b/i, /\bwon'?t (?:do|build|need)\b/i, /\bnever ?mind\b/i, /\bforget (?:about )?(?:it|that|the)\b/i];
const PLAN = /^(?:Approved plan|Plan)\s*:/i;
const TROUBLE_TERMS = new Set(terms([...TROUBLE].join(' ')));
const FIXED_TERMS = new Set(terms([...FIXED].join(' ')));
const TIME_TERMS = new Set(terms([...RELATIVE_TIME].join(' ')));

function kindOf(m: Memory): 'problem' | 'plan' | undefined {
  if (PLAN.test(m.content)) return 'plan';
  const w = words(m.content);
  // A report of something wrong: not a lesson, a taste, nor a rule about errors ("never swallow errors").
  // The state of the work as the person put it is a report whatever its "never" says ("the download never starts").
  const rule = m.type !== 'state' && (standingIn(m.content) || w.some((x) => DEONTIC.has(x)));
  if (m.type !== 'learning' && m.type !== 'preference' && !rule && w.some((x) => TROUBLE.has(x)) && !w.some((x) => FIXED.has(x))) return 'problem';
  return undefined;
}

function ends(kind: 'problem' | 'plan', text: string): boolean {
  const w = words(text);
  if (kind === 'problem') return w.some((x) => FIXED.has(x));
  return w.some((x) => DROPPED.has(x)) || DROPPED_PHRASES.some((re) => re.test(text));
}

/** The statements stored from the same message as a dropped plan (its steps): they go with it. */
function withThePlan(m: Memory, active: readonly Memory[], taken: Set<string>): Memory[] {
  const from = new Set(m.sources.flatMap((s) => s.messageIds.map((id) => `${s.sessionId}\u0000${id}`)));
  return active.filter(
    (x) =>
      x.id !== m.id &&
      !taken.has(x.id) &&
      !x.pinned &&
      x.editedAt === undefined &&
      x.sources.every((s) => s.messageIds.every((id) => from.has(`${s.sessionId}\u0000${id}`))),
  );
}

export function planResolutions(active: readonly Memory[], episodes: EpisodeStore, plan: Plan, taken: Set<string>): void {
  for (const m of active) {
    if (taken.has(m.id) || m.pinned || m.editedAt !== undefined) continue;
    const kind = kindOf(m);
    const ns = namespaceOf(m);
    if (kind === undefined || ns.scope !== 'project') continue;
    // What the problem is about, without the words of trouble: "broken" and "bug" name the same thing
    // in the report and in the message that says it is fixed.
    const own = new Set(terms(m.content.replace(PLAN, '')).filter((t) => kind === 'plan' || !TROUBLE_TERMS.has(t)));
    if (own.size < 2) continue;
    const sources = new Set(m.sources.map((s) => s.sessionId));
    for (const hit of episodes.search(m.content.replace(PLAN, ''), { project: ns.project, limit: LOOK_AT })) {
      // Later than the memory was last said: in a later session, or later in its own.
      if (hit.kind !== 'text' || (hit.at === undefined ? sources.has(hit.sessionId) : hit.at <= m.lastSeenAt)) continue;
      const theirs = new Set(terms(hit.text));
      let shared = 0;
      for (const t of own) if (theirs.has(t)) shared++;
      // "The Safari export bug is fixed now" names the report by a few of its words, all of them its own.
      const named = [...theirs].filter((t) => !TROUBLE_TERMS.has(t) && !FIXED_TERMS.has(t) && !TIME_TERMS.has(t));
      const byName = shared >= 2 && named.length > 0 && named.filter((t) => own.has(t)).length / named.length >= ABOUT;
      if ((shared / own.size < ABOUT && !byName) || !ends(kind, hit.text)) continue;
      taken.add(m.id);
      const quote = hit.text.replace(/\s+/g, ' ').slice(0, 100);
      const reason = `${kind === 'problem' ? 'fixed' : 'dropped'} in session ${hit.sessionId}: "${quote}"`;
      plan.archive.push({ id: m.id, reason });
      if (kind === 'plan')
        for (const step of withThePlan(m, active, taken)) {
          taken.add(step.id);
          plan.archive.push({ id: step.id, reason: `part of a plan that was ${reason}` });
        }
      break;
    }
  }
}
