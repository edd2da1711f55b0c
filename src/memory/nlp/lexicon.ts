/**
 * The closed word classes the ranker's features read: modals, negators, pronouns, time words,
 * hedges, interjections. English function words only; no word here was picked from a transcript,
 * and what they are worth is fitted (weights.json), not set by hand.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));
const phrases = (list: string): readonly (readonly string[])[] =>
  list
    .split('|')
    .map((p) => p.trim().split(/\s+/))
    .filter((p) => p.length > 0 && p[0] !== '');

export { AUXILIARIES, OPENERS } from './mood.js';
export const WH_WORDS = set(`what why how who whom whose which where when`);

/** Said of every time, not one: "always", and the adverbs of habit ("commit often"). */
export const STANDING = set(`always never whenever henceforth often regularly frequently usually routinely habitually`);
export const STANDING_PHRASES = phrases(`from now on | going forward | moving forward | by default | as a rule | every time | each time |
  any time | in general | in the future | in future | for future | from here on | without exception | at all times | keep in mind |
  remember that`);
export const DEONTIC = set(`must should shall shouldn't mustn't ought required mandatory necessary`);
export const DEONTIC_PHRASES = phrases(`need to | needs to | have to | has to | got to | is required | are required | not allowed`);
/** Lemmas of taste and wish, read with a first-person subject. */
export const PREFERENCE = set(`prefer preference like love hate dislike rather want wish`);
export const NEGATORS = set(`not n't never no none nothing nobody neither nor without cannot`);
export const HEDGES = set(`maybe perhaps probably possibly might guess suppose wonder unsure presumably`);
/** Saying one does not know. */
export const UNSURE = phrases(
  `not sure | no idea | no clue | don't know | do not know | dont know | not certain | top of my head | can't think of | cannot think of | can't remember | don't remember`,
);
export const HEDGE_PHRASES = phrases(`i think | i guess | not sure | i'm not sure | could be | might be | i wonder | do you think | if possible`);
export const CONDITIONS = set(`if when whenever before after unless once until while`);
export const FIRST_SINGULAR = set(`i me my mine myself`);
export const FIRST_PLURAL = set(`we us our ours ourselves let's`);
export const SECOND = set(`you your yours yourself`);
/** Pointing at what is on the table right now. */
export const DEICTIC = set(`it this that these those them here there above below`);
/** Time relative to the moment of speaking: what holds now, or for now. */
export const RELATIVE_TIME = set(`now today tonight tomorrow yesterday currently yet again still already soon later next temporarily
  meanwhile recently anymore`);
export const RELATIVE_TIME_PHRASES = phrases(`for now | right now | at the moment | for the moment | for the time being | this time |
  this session | this week | for this | until further notice | in a minute | for a while`);
/** Words of work not done yet: "the pending bit", "what's remaining". */
export const OPEN_WORK = set(`pending unfinished remaining outstanding todo`);
/** Time words that point back: what they date is over. */
export const PAST_TIME = set(`yesterday ago recently earlier`);
/** Interjections and words of thanks, praise or complaint. */
export const CHATTER = set(`thanks thank thx lol haha wow oops sorry yay cheers great nice awesome cool perfect wtf ugh hmm damn omg agree agreed`);
/** The words of something going wrong, in any codebase: a report of the moment, or a lesson when fixed. */
export const TROUBLE = set(`error errors warning warnings failed failing fails failure crash crashed broken bug bugs exception undefined
  unused issue issues problem problems wrong`);
/** Lemmas of being and seeming, for a judgement of what is on the table ("that looks great"). */
export const SEEMING = set(`be look sound seem feel`);
/** Words that bound a quantity ("under 50", "at most 3", "max 2"). */
export const BOUNDS = set(`under below over above within max maximum min minimum most least than exceed exceeds`);
/** Leaving a choice to someone else. */
export const DEFERRALS = phrases(`you decide | up to you | your call | not sure | no preference | doesn't matter | does not matter | whatever |
  i don't know | idk | no idea | either | any of | skip`);
/**
 * Verbs of a task done once: "add a gitignore file", "check the disk", "help me apply for the
 * grant". Their command is a request of the moment unless something makes it last (always, a
 * condition on the agent's own work, every case). Verbs of manner and choice ("use", "keep",
 * "prefer", "write … in", "name") are not here: their bare command is how the work is done.
 */
export const TASK_VERBS = set(`add build change check clean complete create debug delete deploy do draft explain finish fix generate get give go help
  implement install investigate kill list look make merge move open print pull push read refactor remove rename replace research
  restart review rewrite run scan search send set show start summarize summarise take tell test try update upgrade work find
  bump raise lower increase decrease reduce revert undo round wire integrate port convert`);
/** Words that set a course rather than ask for a task now: "eventually I'd like to add tags". */
export const HORIZON = set(`eventually someday ultimately long-term`);
/** Verbs of looking into something or trying it: "let's see if …", "let's check the logs". */
export const LOOK_VERBS = set(`see try check look test investigate explore find figure inspect verify debug examine`);
/** Verbs that look into something or ask about it, trying it included: "research the flags", "locate the codebase". */
export const INQUIRY_VERBS: ReadonlySet<string> = new Set([
  ...LOOK_VERBS,
  ...set(`read research review understand analyze analyse locate search diagnose ask confirm compare evaluate identify`),
]);
/** Operations on the repository or the running system, which change no code of their own: "commit everything", "restart the server". */
export const CHORE_VERBS = set(`commit push pull rebase restart`);
/** A sentence that says something was done, in the languages people and their agents write in. */
export const SAYS_DONE =
  /\b(?:done|completed?|implemented|fixed|added|finished|built|committed|shipped|merged|resolved|works now|pass(?:es|ed)?|c'est fait|terminé|ajouté|corrigé|implémenté|hecho|listo|terminado|implementado|erledigt|fertig|implementiert|behoben|feito|concluído|fatto|completato)\b|完成|済み|実装しました|已实现|已完成/i;
/** The agent offering to do something next ("Want me to …?", "Want to test it …?", "Shall I …?", "Chceš, abych …?"): a bare yes lets it go on. */
export const OFFER =
  /^\W*(?:(?:do you )?want me to|want to|would you like me to|shall i|should i|can i|veux-tu que je|voulez-vous que je|tu veux que je|¿?quieres que|soll ich|chce(?:š|te),? abych|要我|要不要我|需要我)\b/iu;
/** A bare yes, in the languages people answer in. */
export const YES = set(`yes yeah yep yup sure ok okay please ano jo jasně oui si sí ja jawohl sim tak да はい 是 好 对 嗯`);
/** Verbs that let the agent go on with what is on the table: "continue", "proceed", "engage", "go ahead". */
export const GO_AHEAD = set(`proceed continue resume engage carry go implement execute do start begin apply`);
/** A go-ahead said as a phrase, whole: "go for it", "ship it", "lgtm". */
export const GO_AHEAD_REPLIES: ReadonlySet<string> = new Set(['go for it', 'go ahead', 'do it', 'sounds good', 'ship it', 'lgtm', 'proceed']);
/**
 * A step of a plan already set, named by its place in it: "phase 2", "the next step", "milestone iv"
 * (a regular expression's source); with `whole`, the plan itself too ("the plan").
 */
export const planStepName = (whole: boolean): string =>
  String.raw`(?:(?:the|next|remaining|first|second|third|last|final)\s+)*(?:phase|step|stage|part|milestone|item|task${whole ? '|plan' : ''})s?(?:\s*(?:\d+|[ivx]+|[a-z]|one|two|three|four|five|six)\b)?`;
/** Words that open a clause of what someone asks about, not a directive: "what it should produce". */
export const RELATIVES = set(`what how which where who whatever`);
/** Quantifiers that make a statement about every case. */
export const UNIVERSAL = set(`every each all any`);

/** Says it holds always: "always", "never", "from now on", "by default"… */
export function standingIn(text: string): boolean {
  const lower = text.toLowerCase().split(/[^\p{L}']+/u);
  return lower.some((w) => STANDING.has(w)) || STANDING_PHRASES.some((p) => lower.some((_, i) => p.every((w, k) => lower[i + k] === w)));
}

/** Words that tell a value changed: "X now runs as…", "we moved to Y", "no longer", "instead". */
const CHANGE = set(`now anymore instead longer switched switch moved migrated replaced replace changed renamed ported converted`);

export function marksChange(text: string): boolean {
  return text
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .some((w) => CHANGE.has(w));
}
