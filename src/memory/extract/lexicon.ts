/**
 * The small word lists the classifier reads sentences with. Lower-case surface forms unless a list
 * says lemmas. These are English function words and verb classes, not phrases from any transcript.
 */
import type { Pos, Token } from '../nlp/index.js';

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));
const seqs = (phrases: string): readonly (readonly string[])[] =>
  phrases
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => p.split(/\s+/));

export const CONTENT_POS: ReadonlySet<Pos> = new Set<Pos>(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM']);

/** Words that open a sentence without being part of it. */
export const LEAD_FILLERS = set(`ok okay so and also then but oh well alright anyway btw yes yeah yep sure hmm um uh hey hi please pls plz kindly
  great nice cool good perfect awesome thanks thx right now one more thing actually`);
/** Adverbs that may sit before an imperative verb. */
export const LEAD_ADVERBS = set(`always never just also only still first please really definitely absolutely generally usually ever`);

/** Verbs the lite model sometimes tags as nouns or adjectives at the start of a sentence. */
export const COMMAND_VERBS = set(`use run test commit push pull format build deploy check update add fix set keep make move write call name put start
  stop stick prefer avoid ask pause review work wrap store log focus document bump tag merge rebase branch install lint seed clear
  create remove delete rename replace rewrite refactor mention include exclude skip ignore handle default limit prefix follow mirror
  match align tackle implement apply continue proceed retry explain show tell describe summarize summarise list read open export
  help try debug verify confirm compare analyze analyse investigate look find search map trace print enable disable reseed split
  reply respond speak talk answer`);
/** Base-form words that do not make an imperative when they open a sentence. */
export const NOT_IMPERATIVE = set(`be is are am was were been have has had do does did can could would should will shall may might must need`);

export const QUESTION_OPENERS = set(`what why how who whom whose which where when is are am was were does did do can could would should shall will
  may might have has had isn't aren't doesn't didn't don't won't wouldn't shouldn't couldn't wdyt`);

export const STANDING_WORDS = set(`always never whenever henceforth`);
export const STANDING_PHRASES = seqs(`from now on | going forward | moving forward | from here on | by default | as a rule | every time | each time |
  any time | anytime | in general | in the future | for all future | for future | for the future | all future | without exception |
  in every project | in all projects | from this point`);
export const UNIVERSALS = set(`each every all any`);
export const MODALS = set(`must should shall shouldn't mustn't required requires require`);
export const MODAL_PHRASES = seqs(
  `need to | needs to | have to | has to | got to | is required | are required | ought to | is mandatory | not allowed | is not allowed`,
);
export const CONDITIONS = seqs(`before you | before we | before committing | before pushing | before moving | before touching | before merging |
  before any | before each | before every | after each | after every | after you | after we | once you | when you | whenever |
  in case | so that | so we | so you | prior to | until you | unless`);
export const CONDITION_WORDS = set(`before after when once`);

/** Lemmas: first-person taste. */
export const PREFERENCE_VERBS = set(`prefer like love hate dislike rather enjoy`);
export const PREFERENCE_PHRASES = seqs(`i'd rather | i would rather | we'd rather | i'd prefer | i would prefer | my preference | our preference |
  i don't want | i dont want | i do not want | i don't like | i dont like | i dont wanna | i don't wanna`);
/** "I'll commit", "I will handle the frontend", "I'll add the images myself". */
export const RESERVES = seqs(`i'll | i will | i 'll | i am going to | i'm going to | myself | i handle | i do the | we'll handle | user will`);
/** Lemmas of what a person keeps for themselves. */
export const RESERVABLE = set(`commit push merge deploy handle review test add do release publish run take own write design`);

/** Pointing at the thing being worked on (not "this repo", "this project"). */
export const DEICTIC = set(`it this that these those them here above below there`);
export const DEMONSTRATIVE = set(`this that these those`);
export const PROJECT_NOUNS = set(`repo repository project codebase app application service team company monorepo workspace product site folder directory`);

/** The moment, not the standing state. */
export const MOMENTARY = set(`now yet again first next then later already currently today tonight tomorrow soon meanwhile`);
/** Lemmas of imperatives that move the current task along. */
export const MOMENTARY_VERBS = set(`continue proceed retry resume go start finish tackle implement apply redo rerun undo revert clear
  do try stop wait hold approve`);
/** Lemmas of imperatives that ask for information or an investigation. */
export const INFO_VERBS = set(`explain show tell describe summarize summarise check look find analyze analyse investigate review compare list
  read see search research give suggest think consider evaluate verify confirm debug figure help walk map trace examine inspect export
  print answer let report estimate brainstorm recommend plan outline draft`);
export const INFO_PHRASES = seqs(`can you | could you | would you | will you | can u | let me know | i want to know | i wonder | i want to understand |
  help me | go through | look into | take a look | what about | how about`);

/** Lemmas: the vocabulary of a choice. */
export const DECISION_LEMMAS = set(`decide choose chose opt settle agree pick`);
export const DECISION_PHRASES = seqs(`instead of | rather than | in favor of | in favour of | go with | going with | went with | stick with |
  switch to | switched to | chosen over | over electron | let's use | lets use | we use | we're using | we are using | we'll use`);
/** Lemmas of change verbs (with from/to: a renamed project, a moved service, a switched tool). */
export const CHANGE_LEMMAS = set(`rename move switch migrate replace port convert upgrade downgrade transition`);

export const CHATTER = set(`thanks thank thx lol haha wow wtf damn ugh omg great nice awesome cool perfect excellent amazing brilliant love
  sorry oops yay cheers absurd weird idiot`);
export const STATUS_PHRASES = seqs(`it is showing | it's showing | is showing | is still | are still | doesn't work | does not work | didn't work |
  not working | isn't working | doesnt work | doesnt seem | doesn't seem | is broken | is failing | it shows | now it | it says | i see | i get |
  i got | i'm getting | i am getting | seems to | looks like`);
export const CONSTRAINT_PHRASES = seqs(`doesn't support | does not support | don't support | not supported | unsupported | can't | cannot | can not |
  is required | are required | requires | must be | must not | has no | have no | doesn't exist | does not exist | only works | never works |
  false positive | is not allowed | instead of`);

/** A past-tense verb (wink tags VBD/VBN only in its detailed tag set; the lemma tells). */
export function isPast(t: Token): boolean {
  return (t.pos === 'VERB' || t.pos === 'AUX') && t.lemma !== t.lower && (t.lower.endsWith('ed') || PAST_IRREGULAR.has(t.lower));
}
const PAST_IRREGULAR = set(`was were did had made went got saw said told ran built wrote thought found gave took came knew began broke chose brought
  kept left meant put set sent showed shown felt held lost paid read stood understood`);

/** Doubt: a guess is not a fact, a wondering not a rule. */
export const HEDGES = set(`maybe perhaps probably possibly might guess wonder unsure`);
export const HEDGE_PHRASES = seqs(`i think | i guess | not sure | i'm not sure | could be | i suppose | i wonder | might be | if possible | do you think`);
export const POSSESSIVES = set(`our my your their its his her`);
/** Lemmas of the verbs of a team's workflow: rules about them are process, not a one-off step. */
export const WORKFLOW = set(`commit push merge rebase branch review approve release deploy publish tag lint format test pause ask confirm
  squash amend sign document changelog migrate pr`);
/** Nouns for an aspect of a project: a sentence whose subject is one defines the project. */
export const ASPECT_NOUNS = set(`project app application product repo repository codebase platform tool idea stack scope goal audience target
  deadline architecture design theme style ui ux convention workflow process requirement constraint deployment hosting database db language
  framework backend frontend api server client service name mvp pitch brand color colour palette layout domain branch port
  command version runtime environment editor license config configuration settings setting docs documentation migrations
  migration secrets`);
export const APPROVAL_GATES = seqs(`ask me | check with me | confirm with me | wait for me | wait for my | pause for my | pause for me | for my review |
  for my approval | for approval | my approval | my review | my confirmation | my go-ahead | my ok | my okay`);
/** Subjects that narrate rather than rule ("it always fails", "they never answer"). */
export const NARRATING_SUBJECTS = set(`it this that they he she there which`);
/** How the assistant should talk: "keep answers short", "reply in English", "be concise". */
export const STYLE_OBJECTS = set(`answer answers response responses reply replies message messages explanation explanations summary summaries
  comment comments question questions tone english language output`);
export const STYLE_ADJECTIVES = set(`concise brief short terse direct succinct formal informal polite blunt honest`);
export const STYLE_VERBS = set(`keep be reply respond answer write talk speak explain ask format`);
/** Nouns of trouble: "we always have this problem" is a complaint, not a rule. */
export const PROBLEM_NOUNS = set(`problem problems issue issues bug bugs error errors trouble crash crashes failure failures`);
/** Lemmas of wanting: "we need a search/replace" asks for something; it does not say how things are. */
export const WANTING = set(`need want try wish hope gotta`);
/** Verbs that forbid: "avoid adding dependencies", "stop using X". */
export const AVOID_VERBS = set(`avoid stop refrain quit`);
/** Languages a person may want answers or docs in. */
export const LANGUAGES = set(`english french german spanish italian portuguese dutch polish czech chinese japanese korean russian british american`);
/** "Remember that …", "keep in mind …": the person asks for it to be kept. */
export const REMEMBER_PHRASES = seqs(`remember that | remember to | keep in mind | bear in mind | note that | for future reference | don't forget`);
/** Lemmas of verbs that state how a thing is set up (with a subject that names a part of the project). */
export const SETUP_VERBS = set(`be have use run live target listen serve sit depend require expose store host deploy`);
/** "prefer the second option": choosing among what is on the table right now. */
export const CHOICE_WORDS = set(`first second third last former latter option options one other`);
/** Lemmas that make "don't …" reassurance rather than a rule: "don't worry about the lint errors". */
export const REASSURING = set(`worry bother mind panic rush stress hesitate apologize apologise fret`);
/** "Don't change anything": a freeze on the work at hand, not a rule about something. */
export const SWEEPING = set(`anything everything nothing`);
/** Lemmas of keeping a choice: "keep SQLite", "stay on Node 20". */
export const KEEPING = set(`keep stick stay remain`);
/** Lemmas of commands that choose: with "instead of", "rather than", "over". */
export const CHOOSING = set(`use go stick switch pick choose prefer keep move migrate adopt standardize standardise replace let build write deploy host run`);
