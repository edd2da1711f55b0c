/**
 * What kind of statement a candidate is, read from its clause analysis before anything is ranked:
 * a standing rule or preference, a project fact, a decision, the current state, or what is never
 * worth a line on its own (a one-off request, chatter, pasted material, a question). The kind
 * decides where a memory is shown and whether it is kept at all; the fitted ranker then orders the
 * statements within their kind. Every test here reads the statement's form, never its length.
 */
import type { CandidateSource } from '../candidates/index.js';
import { OFFER } from '../nlp/lexicon.js';

export const KINDS = ['rule', 'fact', 'decision', 'state', 'one-off', 'chatter', 'pasted', 'question'] as const;
export type Kind = (typeof KINDS)[number];

/** The person's own statements (what they typed, answered, or said rejecting a call): only these make a session short (keep.ts). */
export const ownStatement = (source: CandidateSource): boolean => source === 'typed' || source === 'answer' || source === 'feedback';

/** Kinds that are never stored as a memory of their own. */
export const TRANSIENT: ReadonlySet<Kind> = new Set(['one-off', 'chatter', 'pasted', 'question']);

/**
 * Whether a statement of this kind and source may become a memory: never a transient kind, nor the
 * work in hand a compaction summary lists (the agent's record of the work, memory/state/, says what
 * is open and replaces it when a later session moves on).
 */
export const storable = (kind: Kind, source: CandidateSource): boolean => !TRANSIENT.has(kind) && !(kind === 'state' && source.startsWith('summary-'));

/**
 * A verdict the person gave on what the agent put to them is a decision by construction, kept
 * whatever its score and beside the session's cap (proposals.ts; the extractor's limit still
 * holds): a plan approved, a reason for rejecting a plan or a call, and a choice among the options
 * of the agent's question about the work ("How should users set gist visibility? → unlisted
 * only"), and what the person said is right of the agent's words they pasted back ("keep the MSW
 * handlers, that part's right"). The corpus holds too few of them for the fit to weigh, and a short
 * answer in a long session scores low whatever it decides. A reply to the agent's offer to do
 * something next ("Want me to clear it out?") and an answer that leaves the choice open (kind
 * chatter) are ranked like the rest; one that only asks for a task of the moment is a one-off.
 */
export function isVerdict(kind: Kind, c: { source: CandidateSource; text: string; rejects?: string | undefined; endorses?: boolean | undefined }): boolean {
  if (c.source === 'plan') return true;
  if (c.endorses === true) return storable(kind, c.source);
  if (c.source === 'feedback') return c.rejects !== undefined;
  return c.source === 'answer' && kind === 'decision' && !OFFER.test(c.text);
}

/** The clause analysis a kind is read from (the ranker's named features, before kinds are added). */
export interface KindSignals {
  source: CandidateSource;
  english: boolean;
  asking: boolean;
  /** Asks what is needed or advised ("do we need to …?", "should I …?"): its modal is the question's. */
  asksNeed: boolean;
  /** The person says they do not know ("I'm not sure what it is for", "I wonder if …"). */
  unsure: boolean;
  /** A proposal to look or try once: "let's see if it builds", "let's check the logs". */
  tryingOut: boolean;
  /** Written the way an agent writes its reports: a status or a bold label before a colon. */
  agentFormat: boolean;
  /** A work item's status line ("✅ COMPLETED: …", "⏳ PENDING: …"): the agent's record, never a rule. */
  statusLine: boolean;
  /** Announces what follows: "Here's what I would like it to do." */
  intro: boolean;
  /** Opens with a label naming trouble: "More UI issues - …", "Bug: …" (a report). */
  troubleLabel: boolean;
  /** Opens with a label naming trouble whose value is a rule about it: "Errors: use thiserror in the libraries". */
  troubleRule: boolean;
  /** What the person sees happen: "it doesn't seem to start", "it just shows a blank screen", "the pet owner is showing black". */
  observed: boolean;
  command: boolean;
  bareCommand: boolean;
  /** A command whose verb is a task done once, with nothing that makes it last (lexicon TASK_VERBS). */
  task: boolean;
  /** A task asked as a wish ("I'd like you to add …", "I want to rename …"), with nothing that makes it last. */
  wishedTask: boolean;
  /** A command that only lets the agent go on: "continue", "engage", "implement the plan". */
  goAhead: boolean;
  /** Says "I", "me" or "my". */
  firstPerson: boolean;
  /** Some verb is in a past form: told of what happened. */
  anyPast: boolean;
  /** Names work not done yet: "pending", "remaining". */
  openWork: boolean;
  /** Opens by saying it is so now: "CURRENT: …", "Still failing: …". */
  current: boolean;
  /** Another language's request of the moment: "again" ("nochmal", "もう一回") or "explain" ("explique-moi", "説明して"). */
  moment: boolean;
  /** Bound to the day it was said: "today", "tonight", "this session". */
  today: boolean;
  /** A short thanks or acknowledgement in another language ("merci, c'est nickel", "好的，谢谢"). */
  acknowledgement: boolean;
  evaluation: boolean;
  fragment: boolean;
  copula: boolean;
  labelValue: boolean;
  /** The value after the label is a command: "Tests: run make check before every push". */
  valueCommand: boolean;
  standing: boolean;
  deontic: boolean;
  preference: boolean;
  condition: boolean;
  limit: boolean;
  negated: boolean;
  universal: boolean;
  reserves: boolean;
  deferral: boolean;
  /** An answer to the agent's offer to do a chore of the repository next: commit, push, merge. */
  choreOffer: boolean;
  /** A command to use one of the agent's skills ("use the apply-grant skill"): picked for the task in hand. */
  skillCall: boolean;
  /** An answer whose reply is a command of its own, not one of the options the question put. */
  replyTask: boolean;
  /** Share of the words that are interjections, thanks or praise. */
  chatter: number;
  relativeTime: number;
  /** Its one word of the moment is "now" (not "for now", "right now"), in no code: "MSRV is 1.80 now", "the API now lives at /v2". */
  changedNow: boolean;
  /** Told in the past tense, nothing in the present. */
  past: boolean;
  trouble: number;
  document: boolean;
  /** Content words (nouns, verbs, adjectives, numbers) that are not stop words. */
  contentWords: number;
  /** Names a tool, a file, a name or a thing the session touched. */
  named: boolean;
  /** The whole statement is a parenthesis: an aside, a note on the conversation. */
  aside: boolean;
  /** Puts a course to the team: "let's …", "we'll …", "we're going to …", "we decided …". */
  proposal: boolean;
  /** Sets one thing against another with nothing else said: "polars, not pandas", "tabs, not spaces". */
  contrast: boolean;
}

/** Said to hold beyond the moment: always/never, must/should, a condition, a bound, a wish, a prohibition. */
const lasting = (s: KindSignals): boolean => s.standing || s.deontic || s.preference || s.condition || s.limit || s.universal || s.negated;

export function kindOf(s: KindSignals): Kind {
  switch (s.source) {
    case 'answer':
      if (s.deferral) return 'chatter';
      // A rule said in the answer stands ("yes, and always rebase before you push").
      if (s.choreOffer && !s.standing && !s.deontic && !s.preference) return 'one-off';
      // "→ Remember your training", "→ great, commit, save": the reply asks for a task of the moment and
      // chooses nothing; "→ go on with rubocop, I'll commit" keeps a part of the work for the person.
      if (!s.replyTask || s.reserves) return 'decision';
      return ['one-off', 'chatter'].includes(kindOf({ ...s, source: 'typed' })) ? 'one-off' : 'decision';
    case 'plan':
    case 'plan-body':
    case 'feedback':
      return 'decision';
    case 'instructions':
      if (s.statusLine) return 'pasted';
      // "USB detection: shows as PTZ Pro Camera": a note the instruction file keeps, not a rule.
      return s.labelValue && !s.command && !s.valueCommand && !s.deontic && !s.standing && !s.preference && !s.limit ? 'fact' : 'rule';
    case 'learning':
    case 'url':
      return 'fact';
    case 'assistant':
    case 'summary-files':
      return 'pasted';
    // A compaction summary's work in hand is the state it was in; the rest is what was learned or asked.
    case 'summary-pending':
    case 'summary-current':
    case 'summary-next':
      return 'state';
    // The summary's account of what was asked: a task it restates ("Fix the compilation errors after
    // the poke feature") was this session's request, as it would be typed.
    case 'summary-request':
      if (s.aside) return 'pasted';
      return kindOf({ ...s, source: 'typed' }) === 'one-off' ? 'one-off' : 'fact';
    case 'summary-concepts':
      return s.aside ? 'pasted' : 'fact';
    case 'summary-errors':
    case 'summary-solving':
      // "CURRENT: cannot invoke Access.get/2 inside a guard": the error still being worked on.
      if (s.current) return 'state';
      return s.aside ? 'pasted' : 'fact';
    case 'summary-user':
    case 'summary-other':
      // "(interrupted the long test run)", "(plan mode approval - implicit)": the summary's note on
      // the conversation, not something said.
      return s.aside ? 'pasted' : 'fact';
    case 'typed':
      break;
  }
  // "(plan mode approval - implicit)": an aside, typed or a summary's line in the person's place.
  if (s.aside) return 'chatter';
  if (s.agentFormat) return 'pasted';
  if (s.intro && !s.standing && !s.deontic) return 'chatter';
  if (s.asking && !s.standing && (!s.deontic || s.asksNeed)) return 'question';
  // Other languages: only explicit markers can be read (markers-i18n.ts), and they are read in a
  // sentence the English reading let through as well.
  if (!s.english && s.asking) return 'question';
  if (s.standing) {
    if (!s.english) return 'rule';
  } else if (s.acknowledgement) return 'chatter';
  else if (s.moment) return 'one-off';
  if (!s.english) return s.openWork ? 'state' : 'fact';
  // "That looks great" is chatter; "that looks great, but always run the linter first" says more.
  const onlyJudged = s.evaluation && !s.standing && !s.deontic && !s.preference && !s.command && !s.asking;
  if (s.contentWords === 0 || onlyJudged || s.chatter >= 0.34 || s.goAhead) return 'chatter';
  // "I'm not sure what that code is for": a doubt, neither a fact nor a rule.
  if (s.unsure && !s.command && !s.deontic && !s.preference && !s.standing) return 'chatter';
  // "I just got back from a walk, I realized we drifted": the person's story, naming nothing that lasts.
  if (s.firstPerson && s.anyPast && !s.command && !s.named && !lasting(s) && s.trouble === 0) return 'chatter';
  if (s.document && !s.labelValue && !s.copula && !lasting(s)) return 'pasted';
  // "Don't edit anything yet, I want to understand the code first": an instruction bound to the moment.
  if (s.command && s.relativeTime > 0 && !s.standing) return 'one-off';
  // "Today I want thumbnails generated on upload": the day's goal, a request, not a standing wish.
  if (s.preference && s.today && !s.standing && !s.deontic) return 'one-off';
  // "Let's see if it builds": its "if" asks, and sets no condition.
  if (s.proposal && !s.standing) return s.tryingOut && !s.deontic && !s.preference && !s.limit ? 'one-off' : 'decision';
  // "Errors: always wrap them with context": the trouble names what the rule is about.
  if (s.troubleRule) return 'rule';
  // "The export is broken on Safari: the download never starts": a report of trouble, whose "never"
  // tells what happens, not what to do.
  // "The message never showed": what was seen, whose "never" tells what happened.
  if ((s.trouble > 0 || s.observed) && s.standing && !s.command && !s.deontic && !s.preference && !s.limit) return 'state';
  // "Bug: the sidebar overlaps the chat, it should scroll": a report, whose "should" is what was expected.
  if (s.troubleLabel && !s.standing) return 'state';
  // "I'd like you to add retries to the uploader": a request, as its command would be.
  if (s.wishedTask) return 'one-off';
  if (s.preference || s.standing || s.deontic || s.limit) return 'rule';
  // "Last one from the list: webhook verification": a label naming work left to do, not a command.
  if (s.openWork && s.labelValue) return 'state';
  // "Add a gitignore file", "check the disk", "go through all the files in src": a task, done once.
  if (s.task) return 'one-off';
  // "Use the apply grant skill": the agent's skills are picked for a task, as a request's own tool.
  if (s.command && s.skillCall && !lasting(s)) return 'one-off';
  // A bare command is a request of the moment when it points at the moment, at trouble, or names
  // nothing that lasts ("explain this function", "run the tests again", "fix the login bug"); "Use
  // pnpm" names a tool and stands.
  if (s.command) return s.bareCommand && (s.relativeTime > 0 || s.trouble > 0 || !s.named) ? 'one-off' : 'rule';
  // "When I deploy, I run the smoke tests myself"; not "when I pressed it, it said …", a story.
  if (s.reserves && s.condition && !s.anyPast) return 'rule';
  // "Yesterday the stuck lock cost Priya two hours": a story of a moment, not how things stand.
  if (s.relativeTime > 0 && s.past && s.trouble === 0) return 'chatter';
  // "The harbour API now lives at /v2", "MSRV is 1.80 now": how a thing is from now on, a fact
  // that replaces the older one, not the state of the work in hand.
  // Not a story or a case ("now when I deposit, it says …"), nor the person's own moment ("dunno the
  // name now").
  if (s.changedNow && s.trouble === 0 && !s.openWork && !s.observed && !s.past && !s.today && !s.condition && !s.firstPerson && !s.fragment) return 'fact';
  if (s.relativeTime > 0 || s.trouble > 0 || s.openWork || s.observed) return 'state';
  // "Postgres 16 on Fly" names what it is about, and "polars, not pandas" the choice it makes; "at
  // some point in the future" names nothing.
  if (s.fragment && !s.labelValue) return s.named || s.contrast || s.contentWords >= 3 ? 'fact' : 'chatter';
  return 'fact';
}
