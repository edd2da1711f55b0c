/**
 * Ranked candidates → what the store is offered: the person's words with a type, a scope, whether
 * they decay, and the score as importance. Type and scope are read from the same features the
 * ranker read, so nothing here weighs a statement twice.
 */
import type { MemoryType } from '../../api/memory.js';
import type { CandidateSource } from '../candidates/types.js';
import { findReplaced } from '../candidates/replaces.js';
import { isTimeBound } from '../candidates/time-bound.js';
import { finish, tidy } from '../nlp/tidy.js';
import { FEATURES, type FeatureName } from './features.js';
import { keepOf, type KeepPolicy } from './keep.js';
import { isVerdict, ownStatement, storable, type Kind } from './kind.js';
import { collectCandidates } from '../candidates/index.js';
import type { ExtractMessage } from '../transcripts/types.js';
import { rank, type Ranked } from './score.js';
import { sessionContext } from './session-context.js';

/** Stage 4 of 9 (after `Ranked`, before `Incoming`): what the store is offered for one statement. */
export interface Proposal {
  /** One statement, self-contained, in the person's words (or the model's rewrite of them). */
  text: string;
  type: MemoryType;
  /** user: how the person works, recalled everywhere; project: about this codebase. */
  scope: 'user' | 'project';
  /** false for time-bound statements ("today", "currently down"): they decay and rank low. */
  stable: boolean;
  /** 0..1 */
  importance: number;
  /** Ids of the messages it came from (provenance). */
  messageIds: string[];
  /** Timestamp of the (last) source message, as written in the transcript. */
  at?: string;
  /**
   * An explicit change ("switched from X to Y", "use Y instead of X", "no longer X"): the old
   * things (X), so older memories in the same scope about them are superseded.
   */
  replaces?: string[];
  /** Where the person said it (typed, answer, plan…): the candidate's source. */
  said?: CandidateSource;
}

const at = new Map(FEATURES.map((f, i) => [f, i] as const));
const value = (r: Ranked, f: FeatureName): number => r.features[at.get(f) ?? -1] ?? 0;
const on = (r: Ranked, f: FeatureName): boolean => value(r, f) > 0;

/** The memory's type follows its kind: a rule is an instruction or a preference, a fact may be a lesson. */
function typeOf(r: Ranked): MemoryType {
  switch (r.kind) {
    case 'rule':
      return on(r, 'modal.preference') ? 'preference' : 'instruction';
    case 'decision':
      return 'decision';
    case 'state':
      return 'state';
    case 'fact':
    case 'one-off':
    case 'chatter':
    case 'pasted':
    case 'question':
      return r.candidate.source === 'learning' || on(r, 'source.summaryLesson') ? 'learning' : 'fact';
  }
}

/** The type a statement of the person's would get: what `remember` gives a text it is not told the type of. */
export function typeOfStatement(text: string): MemoryType {
  const messages: ExtractMessage[] = [{ id: 'remembered', role: 'user', kind: 'text', origin: 'typed', text }];
  const best = rank(collectCandidates(messages), sessionContext(messages)).find((r) => storable(r.kind, r.candidate.source));
  return best === undefined ? 'note' : typeOf(best);
}

/**
 * User scope only for how the person works in general: said in the first person with a standing
 * marker ("I always want…", "never … in any project"), naming nothing of a project (no tool, path,
 * name or thing the session touched) and pointing at nothing. Anything else is the project's; a
 * preference said in two projects is promoted later (promote.ts).
 */
function scopeOf(r: Ranked): 'user' | 'project' {
  if (r.candidate.source !== 'typed') return 'project';
  const general =
    on(r, 'person.first') &&
    on(r, 'modal.standing') &&
    !on(r, 'person.we') &&
    !on(r, 'tech.terms') &&
    !on(r, 'tech.properNouns') &&
    !on(r, 'tech.sessionEntities') &&
    !on(r, 'deixis');
  return general ? 'user' : 'project';
}

/** The person's words without the reply particles and fillers around them ("No, we deploy with Nomad only" says Nomad). A rejection carries what it rejected, so the two are recalled together. */
function textOf(r: Ranked): string {
  const c = r.candidate;
  const said = c.source === 'answer' || c.source === 'plan' ? c.text : tidy(c.text).text || c.text;
  if (c.source === 'feedback' && c.rejects !== undefined) return finish(`Rejected ${c.rejects.replace(/[\s.:;,]+$/, '')}: ${said}`);
  return finish(said);
}

/** Only what the person typed can be bound to the moment; a decision they made, a plan they approved, stands ("tonight's batch" in a plan does not make the plan expire). */
const TIMELESS = new Set<Ranked['candidate']['source']>(['answer', 'plan', 'plan-body', 'learning', 'url', 'instructions']);

const verdict = (r: Ranked): boolean => isVerdict(r.kind, r.candidate);

/** Statements a pasted document leaves for lookup at most. */
const REFERENCE_LINES = 12;
/** What a document says that can be looked up: not its questions, asides or the work in hand. */
const REFERENCE_KINDS: ReadonlySet<Kind> = new Set(['rule', 'fact', 'decision', 'pasted']);

/** The versions, numbers, tools and names a statement gives: what a lookup would ask for. */
const specifics = (r: Ranked): number => value(r, 'tech.numbers') + value(r, 'tech.terms') + value(r, 'tech.properNouns');

/**
 * A document the person pasted (a spec, a brief) is the project's reference. Its statements that
 * name something specific (a version, a port, a tool) are kept for a query to find ("which port
 * does the API listen on"), stored under the floor so they never fill the block unasked: the ranker
 * rightly scores a document's lines low for the block, as most of a spec is not what the next
 * session must be told. The most specific go first; said again in a later session, one rises like
 * any other memory.
 */
function referenceOf(ranked: readonly Ranked[], taken: ReadonlySet<Ranked>, floor: number): { item: Ranked; score: number }[] {
  return ranked
    .filter((r) => !taken.has(r) && r.candidate.source === 'typed' && on(r, 'shape.document') && REFERENCE_KINDS.has(r.kind) && specifics(r) > 0)
    .sort((a, b) => specifics(b) - specifics(a) || b.score - a.score)
    .slice(0, REFERENCE_LINES)
    .map((item) => ({ item, score: Math.max(0, Math.min(item.score, floor / 2)) }));
}

/**
 * The session's memories: what the keep policy (keep.ts) keeps of its statements, never one whose
 * kind is not worth a line of its own (a one-off request, chatter, pasted material, a question),
 * and every verdict whatever its score; then a pasted document's reference lines; at most `max`.
 */
export function proposalsOf(ranked: readonly Ranked[], policy: KeepPolicy, max: number): Proposal[] {
  const kept = keepOf(
    ranked.filter((r) => !verdict(r) && storable(r.kind, r.candidate.source)),
    (r) => r.score,
    { ...policy, perSession: Math.min(policy.perSession, max) },
    (r) => ownStatement(r.candidate.source),
  );
  const verdicts = ranked.filter(verdict).map((r) => ({ item: r, score: Math.max(r.score, policy.floor) }));
  const chosen = [...verdicts, ...kept];
  const reference = referenceOf(ranked, new Set(chosen.map((k) => k.item)), policy.floor);
  const stored = new Map([...chosen, ...reference].slice(0, max).map((k) => [k.item, k.score] as const));
  const lookup = new Set(reference.map((k) => k.item));
  return [...stored.keys()]
    .sort((a, b) => a.candidate.index - b.candidate.index)
    .map((r) => {
      const c = r.candidate;
      // The state of the work goes stale; a rule, a fact or a decision stands unless bound to the moment.
      const stable = r.kind !== 'state' && (TIMELESS.has(c.source) || !isTimeBound(c.text));
      // A spec's line names no change of the project's: it replaces nothing, and is the project's.
      const replaces = !lookup.has(r) && (c.source === 'typed' || c.source === 'feedback') ? findReplaced(c.text) : undefined;
      return {
        text: textOf(r),
        type: typeOf(r),
        scope: lookup.has(r) ? 'project' : scopeOf(r),
        stable,
        // A verdict or a session's best kept below the floor is still worth a line in recall.
        importance: Math.max(0, Math.min(1, stored.get(r) ?? r.score)),
        messageIds: [c.messageId],
        ...(c.at !== undefined && { at: c.at }),
        ...(replaces !== undefined && stable && { replaces }),
        said: c.source,
      };
    });
}
