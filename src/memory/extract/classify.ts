/**
 * One user sentence → at most one memory draft. Precision over recall: questions, hedges, chatter
 * and one-off requests about the work in progress are turned away before and after the rules.
 */
import type { MemoryType } from '../../api/memory.js';
import { RULES, type Rule } from './heuristic-rules.js';
import { namesProjectThing, scopeOf } from './project-markers.js';
import { findReplaced } from './replaces.js';
import { isTimeBound, TIME_BOUND_IMPORTANCE } from './time-bound.js';
import { bodyOf, finish, tidy, wordCount, type Tidy } from './tidy.js';

export interface Draft {
  content: string;
  type: MemoryType;
  scope: 'user' | 'project';
  stable: boolean;
  importance: number;
  replaces?: string[];
}

/** Longer sentences are read only when they carry a standing marker. */
const MAX_SENTENCE = 300;

const QUESTION_START = /^(?:what|why|how|who|whom|whose|which|where|when|is|are|am|was|were|does|did|do you|do we|do i|should|shall|could|would|can|will|may|might|have you|has|had|isn't|aren't|doesn't|didn't|wdyt)\b/;
const POLITE_STANDING = /^(?:can|could|would|will) you (?:please )?(?:always|never|from now on)\b/;
const HEDGE = /\b(?:maybe|perhaps|i think we should|i guess|i wonder|not sure|i'm not sure|might be|could be|probably|what if|how about|do you think|wdyt|any thoughts|if possible|if you can|let me know|i suppose)\b/;
/** A sentence that points at the work in progress ("use a map here", "don't do that"). */
const POINTING = /\b(?:this|these|those)\b(?!\s+(?:repo|repository|project|codebase|code base|monorepo|service|app|team|company|org|workspace|week|weekend|month|sprint|morning|afternoon|evening|session))|\b(?:here|above|below|again|yet|the same|the existing|the other|the previous|the last one|the first one|the second one|option\s+\w+|approach\s+\d+|your (?:suggestion|approach|plan|version|idea|fix|change|solution)s?)\b|\b(?:do|did|change|touch|revert|undo|delete|remove|keep|fix|try|like|use)\s+(?:that|it|them)\b|\b(?:it|that|them)$/;
/** Pointing at the current task, minus "here", which in a statement means "in this repo". */
const POINTING_STATEMENT = /\b(?:this|these|those)\s+(?:file|function|method|test|bug|error|line|change|pr|diff|branch|one|approach|fix)\b|\b(?:do|did|change|fix|try|like|use)\s+(?:that|it|them)\b|\b(?:it|that|them|this|these|those)$/;
/** Names something this specific file/line rather than a convention. */
const TASK_SUBJECT = /^(?:the|this|that|my|your)\s+(?:bug|issue|problem|error|errors|test|function|method|variable|change|changes|fix|pr|diff|line|lines|output|result|results|class|component|loop|query|call|answer|approach|solution|plan|idea|helper|snippet|code|build|failure|crash|stack trace|log|logs)\b|^(?:it|this|that|they|he|she|there|which)\b/;

const STOP_WORDS = new Set(
  `i me my we us our you your it its this that these those they them the a an and or but so to of in on at for with is are was were be been
  do does did done not no don't dont just please always never again now then here there yet also too very really ok okay thing things stuff
  one like way same go going gonna let's lets should must can could would will 'll from make sure remember prefer rather i'd i'm we're
  you're it's that's get got ever by default whenever every time each from now on going forward anything everything something nothing`.split(/\s+/),
);

/** Rules whose marker (always, never, anytime) is also everyday chat: they need a real rule after it. */
const BARE_MARKER = new Set(['always-never', 'whenever']);
const PLEASANTRY = /\b(?:good|great|nice|glad|happy|thanks?|welcome|hear|pleasure|fun|awesome|cool|lovely|wonderful|amazing|proud|cheers|congrats|fantastic|sweet)\b/;

function contentWords(body: string): number {
  return body.split(/[^\p{L}\p{N}'`._/-]+/u).filter((w) => w.length > 1 && !STOP_WORDS.has(w)).length;
}

function isQuestion(t: Tidy): boolean {
  if (t.question) return true;
  // "When deploying, always tag the release" opens like a question but is a standing rule.
  if (/^when\b[^,]{3,60},\s*\S/.test(t.body)) return false;
  return QUESTION_START.test(t.body) && !POLITE_STANDING.test(t.body);
}

function passes(rule: Rule, t: Tidy): boolean {
  const content = contentWords(t.body);
  const words = wordCount(t.body);
  const enough = words >= rule.minWords;
  if (rule.concrete && !namesProjectThing(t.text)) return false;
  switch (rule.guard) {
    case 'standing':
      // "Anytime.", "Always good to hear.", "Never say never." are chat, not rules.
      if (BARE_MARKER.has(rule.name) && (words < 3 || (words <= 6 && PLEASANTRY.test(t.body)) || (content < 2 && !namesProjectThing(t.text)))) return false;
      return content >= 1 && !/\b(?:do|did)\s+(?:that|it|this)\b/.test(t.body) && words <= 80;
    case 'gentle':
      return t.text.length <= MAX_SENTENCE && content >= 1 && words >= 3 && !POINTING_STATEMENT.test(t.body);
    case 'request':
      return t.text.length <= MAX_SENTENCE && content >= 2 && enough && !POINTING.test(t.body);
    case 'fact':
      return t.text.length <= MAX_SENTENCE && content >= 2 && enough && !TASK_SUBJECT.test(t.body) && !POINTING_STATEMENT.test(t.body) && namesProjectThing(t.text);
  }
}

function match(t: Tidy, list: boolean): Rule | undefined {
  for (const rule of RULES) {
    if (list && rule.name !== 'procedure') continue;
    if (rule.polite && !t.polite) continue;
    if (!rule.pattern.test(t.body) || (rule.unless !== null && rule.unless.test(t.body))) continue;
    if (passes(rule, t)) return rule;
  }
  return undefined;
}

/** "Remember (that) X": X is what to keep; if X is itself a known kind, it keeps that kind. */
function remembered(t: Tidy): Tidy {
  const text = t.text.replace(/^(?:remember|keep in mind|bear in mind|for future reference|note for (?:the )?future)(?:\s+that)?[\s,:]*/i, '');
  return { ...t, text, body: bodyOf(text) };
}

function draft(rule: Rule, t: Tidy): Draft {
  const timeBound = rule.transient || isTimeBound(t.body);
  const out: Draft = {
    content: finish(t.text),
    type: rule.type,
    scope: rule.project ? 'project' : scopeOf(t.text),
    stable: !timeBound,
    importance: timeBound ? Math.min(rule.importance, TIME_BOUND_IMPORTANCE) : rule.importance,
  };
  // A temporary change ("until Friday use X instead of Y") must not retire what it stands in for.
  const replaces = timeBound ? undefined : findReplaced(t.text);
  if (replaces !== undefined) out.replaces = replaces;
  return out;
}

/** A time phrase in front ("right now, we use X") hides the rule's opening from the patterns. */
const LEADING_TIME = /^(?:right now|for now|for the time being|at the moment|currently|temporarily|today|tonight|this week|until [^,]{1,30},)[\s,]+/i;

/** Matches the sentence, or what follows a leading time phrase; the draft keeps all of it. */
function matchWithTime(t: Tidy, list: boolean): Rule | undefined {
  const rule = match(t, list);
  if (rule !== undefined) return rule;
  const lead = LEADING_TIME.exec(t.text);
  if (lead === null) return undefined;
  const text = t.text.slice(lead[0].length);
  return match({ ...t, text, body: bodyOf(text) }, list);
}

export function classifySentence(raw: string, list = false): Draft | undefined {
  const t = tidy(raw);
  if (t.text.length === 0 || isQuestion(t) || HEDGE.test(t.body)) return undefined;
  const rule = matchWithTime(t, list);
  if (rule === undefined) return undefined;
  if (rule.name !== 'remember' || /^remember to\b/.test(t.body)) return draft(rule, t);
  const inner = remembered(t);
  if (contentWords(inner.body) < 2) return undefined;
  const kind = match(inner, false);
  // What was explicitly asked to be remembered ranks at least as a standing instruction.
  const base = kind ?? { ...rule, type: 'fact' as const };
  return draft({ ...base, importance: Math.max(base.importance, rule.importance) }, inner);
}
