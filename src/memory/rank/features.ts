/**
 * The ranker's features: generic properties of a statement, read from its language analysis, the
 * closed word classes of lexicon.ts, its shape and its place in the session. Nothing here names a
 * word of any transcript; what each feature is worth was fitted on labelled sessions
 * (scripts/fit-ranker.ts) and lives in weights.json.
 */
import type { Candidate } from '../candidates/index.js';
import { looksForeign, type Token } from '../nlp/index.js';
import { commandAt, firstWord, wishedVerbAt } from '../nlp/mood.js';
import { countTechTerms } from '../nlp/tech-terms.js';
import * as L from '../nlp/lexicon.js';
import { hasMomentMarker, hasOpenWorkMarker, hasStandingMarker, isAcknowledgement } from '../nlp/markers-i18n.js';
import { KINDS, kindOf, type Kind } from './kind.js';
import { echoes, type SessionContext } from './session-context.js';
import {
  commandAfterOnce,
  asksDuty,
  ASKS_NEED,
  BOLD_LABEL,
  EMOJI_LABEL,
  conditionalCommand,
  contrasts,
  dayBound,
  endsGoingOn,
  evaluation,
  coversEveryCase,
  isHabitual,
  hasPhrase,
  ANNOUNCES,
  INTRO,
  labelValue,
  LEADS_IN,
  proposal,
  question,
  seenBehaving,
  STATUS_LINE,
  troubleLabelled,
  tryingOut,
  WISHED_FOR,
} from './clause-forms.js';
import { readAnswer } from './answer-forms.js';

/** The feature names, in the order of the vector (weights.json must list the same). */
export const FEATURES = [
  'source.typed',
  'source.answer',
  'answer.deferral',
  'source.plan',
  'source.planBody',
  'source.rejection',
  'source.summaryState',
  'source.summaryLesson',
  'source.summaryWork',
  'source.summaryFiles',
  'source.instructions',
  'source.established',
  'mood.question',
  'mood.imperative',
  'mood.copula',
  'mood.bareCommand',
  'mood.evaluation',
  'mood.fragment',
  'modal.standing',
  'modal.deontic',
  'modal.preference',
  'modal.hedge',
  'modal.condition',
  'modal.limit',
  'person.reserves',
  'polarity.negated',
  'person.first',
  'person.we',
  'person.you',
  'deixis',
  'time.relative',
  'time.past',
  'trouble',
  'chatter',
  'universal',
  'size.tiny',
  'size.contentShare',
  'tech.terms',
  'tech.properNouns',
  'tech.numbers',
  'tech.sessionEntities',
  'shape.symbols',
  'shape.bullet',
  'shape.document',
  'shape.labelValue',
  'shape.emphasis',
  'place.position',
  'place.sessionSize',
  'corpus.synthetic',
  'said.again',
  'echo.count',
  'echo.span',
  'lang.other',
  ...KINDS.map((k) => `kind.${k}` as const),
] as const;
export type FeatureName = (typeof FEATURES)[number];

/** "CURRENT: …", "Still failing: …": a line that opens by saying it holds at the moment. */
const CURRENT = /^\W*(?:current(?:ly)?|still(?: failing| broken| open)?|now)\b\W*:/i;
/** An announcement with more content words than this says its news itself. */
const ANNOUNCE_WORDS = 4;
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM']);
const PAST_AUX = new Set(['was', 'were', 'did', 'had']);
/** Modals of what has become possible: "can now", "will now". */
const CAN = new Set(['can', 'could', 'will', 'may']);
/** "Keep going", "keep working", "keep trying": going on, not a habit. */
const KEEP_GOING = new Set(['work', 'try', 'look']);
const cap = (n: number, max: number): number => Math.min(n, max);
/** "continue with phase 4", "proceed to step 2: the models", "ready for phase 5": going on to a plan's next step (read past its openers); "implement the plan" goes on with all of it. */
const NEXT_STEP = new RegExp(
  String.raw`^(?:let'?s\s+)?(?:continue|proceed|go|move|start|begin|apply|implement|execute|ready)\s+(?:(?:on|to|with|for|into)\s+)?${L.planStepName(false)}\s*(?:[:.,;!-]|$)`,
  'i',
);
/** An answer is read as its answer: its question was the agent's. */
function spoken(c: Candidate): { tokens: readonly Token[]; text: string } {
  if (c.source !== 'answer') return { tokens: c.sentence.tokens, text: c.text };
  const arrow = c.sentence.tokens.findIndex((t) => t.text === '→');
  return { tokens: arrow < 0 ? c.sentence.tokens : c.sentence.tokens.slice(arrow + 1), text: c.text.slice(c.text.lastIndexOf('→') + 1).trim() };
}

/** The kind and the feature vector of one candidate (FEATURES order), from one reading of it. */
export function readCandidate(c: Candidate, session: SessionContext): { kind: Kind; features: number[] } {
  const { tokens, text } = spoken(c);
  const words = tokens.filter((t) => t.kind === 'word' || t.kind === 'number');
  const lower = tokens.map((t) => t.lower);
  const lemmas = new Set(tokens.map((t) => t.lemma));
  const has = (s: ReadonlySet<string>): boolean => lower.some((w) => s.has(w));
  const count = (s: ReadonlySet<string>): number => lower.filter((w) => s.has(w)).length;
  // "from now on" looks ahead, and "you can now fire your fund manager" tells what has become
  // possible: neither "now" is the moment.
  const lasts = (i: number): boolean => (lower[i - 1] === 'from' && lower[i + 1] === 'on') || CAN.has(lower[i - 1] ?? '');
  const moment = lower.filter((w, i) => L.RELATIVE_TIME.has(w) && !(w === 'now' && lasts(i))).length;
  const verbs = tokens.filter((t) => t.pos === 'VERB' || t.pos === 'AUX');
  const src = c.source;
  const summary = src.startsWith('summary-') ? src.slice('summary-'.length) : undefined;
  // A sentence the English reading let through that is mostly another language's function words
  // ("Schreib die Nachrichten immer auf Englisch") is read as that language: by its standing markers.
  const english = c.sentence.english && !looksForeign(text);
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const visible = text.replace(/\s/g, '').length || 1;
  const sessionWords = new Set(words.map((t) => t.lower).filter((w) => w.length > 2 && session.entities.has(w)));
  const firstPerson = has(L.FIRST_SINGULAR);
  const asking = question(tokens, text);
  const echo = echoes(text, c.messageId, session);
  // A single word is an answer or an acknowledgement, not a command ("Render").
  const opening = english && words.length >= 2 ? commandAt(tokens, text) : -1;
  const at = opening < 0 && english && words.length >= 2 ? commandAfterOnce(tokens, text) : opening;
  const conditional = english && words.length >= 2 && conditionalCommand(tokens, text);
  const command = at >= 0 || conditional;
  // A first word the model read as a noun ("Check the disk") is its own lemma.
  const verb = at >= 0 ? (tokens[at]?.pos === 'VERB' ? tokens[at]?.lemma : tokens[at]?.lower) : undefined;
  // Other languages' standing markers are read in any sentence: "immer" or "siempre" in a sentence
  // read as English is still that language's "always". A standing phrase needs a verb to stand on:
  // "At some point in the future." says nothing that lasts.
  // "Don't run the prepare step anymore", "we no longer vendor deps": from now on, not for the moment.
  const fromNowOn = (lower.includes('anymore') && tokens.some((t) => L.NEGATORS.has(t.lower) || t.negated)) || /\bno longer\b/i.test(text);
  // "rather than" compares; only "I'd rather" is a wish.
  const preference =
    (firstPerson || has(L.FIRST_PLURAL)) && [...lemmas].some((l) => L.PREFERENCE.has(l) && !(l === 'rather' && lower[lower.indexOf('rather') + 1] === 'than'));
  // "Commit after each change", "keep committing", "I'd like you to say how sure you are when you
  // ask me": a command or a wish the work's own course makes a habit ("keep going" only goes on;
  // "now, before we move on" is this time's).
  const habitual = isHabitual(tokens);
  const everyCase = coversEveryCase(tokens, at);
  const next = tokens[at + 1];
  const keepsDoing = verb === 'keep' && next?.pos === 'VERB' && /ing$/.test(next.lower) && !L.GO_AHEAD.has(next.lemma) && !KEEP_GOING.has(next.lemma);
  const standing =
    has(L.STANDING) ||
    (verbs.length > 0 && hasPhrase(lower, L.STANDING_PHRASES)) ||
    hasStandingMarker(text) ||
    fromNowOn ||
    ((command || preference) && !asking && moment === 0 && !hasPhrase(lower, L.RELATIVE_TIME_PHRASES) && (isHabitual(tokens, false) || keepsDoing));
  // "please no pip", "no force pushes": a bare "no" before what it forbids (not a reply's "No, …").
  const lead = firstWord(tokens);
  const prohibition = tokens[lead]?.lower === 'no' && ['NOUN', 'PROPN', 'X', 'ADJ'].includes(tokens[lead + 1]?.pos ?? '') && !/\?\s*$/.test(text);
  const deontic = prohibition || asksDuty(tokens) || hasPhrase(lower, L.DEONTIC_PHRASES);
  // "No, we deploy with Nomad only": a reply's "no" answers the agent; the clause after it is affirmed.
  const reply = /^(?:no|nope)$/i.test(tokens[0]?.text ?? '') && tokens[1]?.kind === 'punctuation' ? 2 : 0;
  const clause = tokens.slice(reply);
  // "… whether it is solved or not", "how it does or doesn't relate": the alternative a question
  // leaves open negates nothing (nor the verb it is read onto).
  const alternative = (i: number): boolean => clause[i - 1]?.lower === 'or' || (clause[i - 1]?.pos === 'AUX' && clause[i - 2]?.lower === 'or');
  const leftOpen = new Set(clause.flatMap((t, i) => (L.NEGATORS.has(t.lower) && alternative(i) ? [i, i + 1] : [])));
  const negated = clause.some((t, i) => (L.NEGATORS.has(t.lower) || t.negated) && !leftOpen.has(i));
  // Other languages have no parts of speech here: every word counts.
  const pastTense = verbs.some((t) => t.lemma !== t.lower && /ed$/.test(t.lower)) && !verbs.some((t) => t.lemma === t.lower && t.pos === 'VERB');
  const contentWords = english ? tokens.filter((t) => CONTENT_POS.has(t.pos) && !t.stop).length : words.length;
  const verbsOnly = verbs.length > 0 && verbs.every((t) => t.lemma === 'be' || t.lemma === 'have');
  const bareCommand = command && !standing && !deontic && !negated && !has(L.CONDITIONS) && !has(L.UNIVERSAL);
  // "DON'T EDIT ANYTHING", "don't touch anything": a stop for now that says neither where nor what;
  // "don't edit anything in vendor/" says where it holds.
  const blanketStop = command && negated && lower.includes('anything') && contentWords <= 1 && !standing && !has(L.CONDITIONS);
  // A command is forbidden by a negator at or before its verb ("never push …") or by a clause of its
  // own ("fix lints, don't slap //nolint on them"); one inside what it goes on to say ("find the
  // pair that proves it is NOT a key") forbids nothing. "Make sure the docs don't bloat" asks that
  // something does not happen, as a prohibition does.
  const assures = verb === 'make' && (next?.lower === 'sure' || next?.lower === 'certain');
  const forbids =
    negated &&
    (assures ||
      // A reply's "no" may answer the agent ("→ take a look at the docs; there's no API key"): read as before.
      src === 'answer' ||
      clause.some(
        (t, i) =>
          !leftOpen.has(i) &&
          (i + reply <= Math.max(at, 0)
            ? L.NEGATORS.has(t.lower) || t.negated
            : t.lower === 'never' || t.lower === "don't" || t.lower === 'dont' || ((t.lower === "n't" || t.lower === 'not') && clause[i - 1]?.lower === 'do')),
      ));
  const task = command && !conditional && L.TASK_VERBS.has(verb ?? '') && !standing && !deontic && !forbids && !habitual && !everyCase;
  // "I'd like you to add retries to the uploader", "I want to rename the settings tab": a task
  // asked as a wish, as a command asks it. "I'd like you to say how sure you are when you ask me"
  // makes it a habit; "eventually I'd like to add tags" sets a course. "I wish we had a dry-run
  // flag" asks for what is not there.
  const wished = english && !command ? wishedVerbAt(tokens) : -1;
  const wishedVerb = tokens[wished];
  const wishedTask =
    ((wishedVerb?.pos === 'VERB' && L.TASK_VERBS.has(wishedVerb.lemma)) || WISHED_FOR.test(text)) &&
    !standing &&
    !deontic &&
    !negated &&
    !habitual &&
    !everyCase &&
    !has(L.CONDITIONS) &&
    !has(L.HORIZON);
  // "Perfect, engage", "sorry about that, continue", "implement the plan": going on, nothing said.
  const goAhead = ((at >= 0 && L.GO_AHEAD.has(verb ?? '')) || endsGoingOn(tokens)) && !standing && !negated && contentWords <= 2;
  // Any verb in a past form ("said", "made", "got back"), beside pastTense's "told only in the past".
  const anyPast = verbs.some((t) => (t.pos === 'VERB' && t.lemma !== t.lower && !/(?:ing|s)$/.test(t.lower)) || PAST_AUX.has(t.lower));
  const limit = tokens.some((t, i) => L.BOUNDS.has(t.lower) && tokens.slice(i + 1, i + 4).some((x) => x.kind === 'number' || x.pos === 'NUM'));
  const reserves =
    tokens.some(
      (t, i) =>
        t.lower === 'i' &&
        (tokens[i + 1]?.pos === 'VERB' || (tokens[i + 1]?.pos === 'AUX' && tokens[i + 2]?.pos === 'VERB')) &&
        !L.PREFERENCE.has(tokens[i + 1]?.lemma ?? ''),
    ) || lower.includes('myself');
  const { deferral, choreOffer, replyTask } = readAnswer(c, tokens, { asking, at, verb });
  const chatter = words.length === 0 ? 0 : (count(L.CHATTER) + tokens.filter((t) => t.pos === 'INTJ').length) / words.length;
  const relative = cap(moment + (hasPhrase(lower, L.RELATIVE_TIME_PHRASES) ? 1 : 0), 3);
  const fragment = english && verbs.length === 0 && !command;
  const isLabelValue = labelValue(tokens);
  const labelledTrouble = troubleLabelled(tokens, text);
  // "Tests: run make check before every push": the value after a label may be a command itself.
  // Read only where it decides the kind (an instruction file's line): it costs a tagging of its own.
  const valueCommand =
    src === 'instructions' && isLabelValue && commandAt(tokens.slice(tokens.findIndex((t) => t.text === ':') + 1), text.slice(text.indexOf(':') + 1)) >= 0;
  // The command's own verb, capitalised, is read as a name ("Close enough."): it names nothing, nor
  // does the praise that opens it ("Great, commit"). A quantity is a setting's value ("indent with two spaces").
  const named =
    countTechTerms(text) > 0 ||
    tokens.some((t, i) => (t.pos === 'PROPN' && i !== at && i >= lead) || t.pos === 'NUM' || t.kind === 'number') ||
    sessionWords.size > 0;
  const kind = kindOf({
    source: src,
    english,
    asking,
    asksNeed: asking && ASKS_NEED.test(text),
    unsure: firstPerson && (hasPhrase(lower, L.UNSURE) || has(L.HEDGES)),
    tryingOut: tryingOut(tokens),
    agentFormat: BOLD_LABEL.test(c.text) || STATUS_LINE.test(c.text) || EMOJI_LABEL.test(c.text),
    statusLine: STATUS_LINE.test(c.text),
    troubleLabel: labelledTrouble === 'report',
    troubleRule: src === 'typed' && labelledTrouble === 'rule',
    intro: INTRO.test(c.text) || LEADS_IN.test(c.text) || (ANNOUNCES.test(c.text) && !named && contentWords <= ANNOUNCE_WORDS),
    observed:
      !command &&
      (lower.some(
        (w, i) => (w === 'seem' || w === 'seems' || w === 'appears') && (lower[i + 1] === 'to' || lower[i - 1] === "n't" || lower[i - 1] === 'not'),
      ) ||
        seenBehaving(tokens)),
    command,
    bareCommand,
    task,
    wishedTask,
    goAhead,
    anyPast,
    firstPerson,
    openWork: has(L.OPEN_WORK) || hasOpenWorkMarker(text),
    current: CURRENT.test(c.text),
    // Read in any sentence: "relance pytest stp" has no letter the English reading would refuse.
    moment: hasMomentMarker(text) || blanketStop || NEXT_STEP.test(text.slice(Math.max(0, text.indexOf(tokens[lead]?.text ?? '')))),
    today: dayBound(lower),
    acknowledgement: isAcknowledgement(text),
    evaluation: evaluation(tokens),
    fragment,
    copula: verbsOnly,
    labelValue: isLabelValue,
    valueCommand,
    standing,
    deontic,
    preference,
    condition: has(L.CONDITIONS),
    // "Keep every command under 100 ms", "max 5 retries" bound the work; "the minimum is 50,000"
    // and "the platforms charge more than 10 %" tell how things are.
    limit: limit && (command || fragment || isLabelValue),
    negated,
    universal: has(L.UNIVERSAL),
    reserves,
    deferral,
    choreOffer,
    skillCall: verb === 'use' && tokens.slice(at + 1, at + 7).some((t) => t.lemma === 'skill'),
    replyTask,
    chatter,
    relativeTime: relative,
    changedNow: moment === 1 && lower.includes('now') && !hasPhrase(lower, L.RELATIVE_TIME_PHRASES) && !/[=;{}]/.test(text),
    past: pastTense || has(L.PAST_TIME),
    trouble: count(L.TROUBLE),
    document: c.document,
    contentWords,
    proposal: proposal(tokens),
    aside: /^\([^()]*\)\.?$/.test(c.text.trim()),
    named,
    contrast: fragment && contrasts(tokens),
  });
  const v: Record<FeatureName, number> = {
    'source.typed': src === 'typed' ? 1 : 0,
    'source.answer': src === 'answer' ? 1 : 0,
    // "you decide", "not sure", "whatever": an answer that leaves the choice to the agent.
    'answer.deferral': deferral ? 1 : 0,
    'source.plan': src === 'plan' ? 1 : 0,
    'source.planBody': src === 'plan-body' ? 1 : 0,
    'source.rejection': src === 'feedback' ? 1 : 0,
    'source.summaryState': summary === 'request' || summary === 'concepts' || summary === 'other' ? 1 : 0,
    'source.summaryLesson': summary === 'errors' || summary === 'solving' ? 1 : 0,
    'source.summaryWork': summary === 'pending' || summary === 'current' || summary === 'next' ? 1 : 0,
    'source.summaryFiles': summary === 'files' ? 1 : 0,
    'source.instructions': src === 'instructions' ? 1 : 0,
    'source.established': src === 'url' || src === 'learning' ? 1 : 0,
    'mood.question': asking ? 1 : 0,
    'mood.imperative': command ? 1 : 0,
    'mood.copula': verbsOnly ? 1 : 0,
    // A command with nothing that makes it last: no always, must, when, every, not.
    'mood.bareCommand': bareCommand ? 1 : 0,
    // "that's great", "this looks too good", "it's confusing": judging what is on the table.
    'mood.evaluation': evaluation(tokens) ? 1 : 0,
    // No verb at all: a label, a title, a fragment ("Foto besar + deskripsi", "Explicitly out of scope").
    'mood.fragment': fragment ? 1 : 0,
    'modal.standing': standing ? 1 : 0,
    'modal.deontic': deontic ? 1 : 0,
    'modal.preference': preference ? 1 : 0,
    'modal.hedge': has(L.HEDGES) || hasPhrase(lower, L.HEDGE_PHRASES) ? 1 : 0,
    'modal.condition': has(L.CONDITIONS) ? 1 : 0,
    // "under 50 lines", "at most 3", "no more than 2": a bound that holds beyond the moment.
    'modal.limit': limit ? 1 : 0,
    // "I do that", "I'll handle the frontend", "I commit myself": the person keeps a job for themselves.
    'person.reserves': reserves ? 1 : 0,
    'polarity.negated': negated ? 1 : 0,
    'person.first': firstPerson ? 1 : 0,
    'person.we': has(L.FIRST_PLURAL) ? 1 : 0,
    'person.you': has(L.SECOND) ? 1 : 0,
    deixis: cap(count(L.DEICTIC), 3),
    'time.relative': relative,
    'time.past': pastTense ? 1 : 0,
    // How much of it is interjection, thanks or praise.
    trouble: cap(count(L.TROUBLE), 2),
    chatter,
    universal: has(L.UNIVERSAL) ? 1 : 0,
    // Length is not evidence: only "next to nothing said" (a word or two) is read from it.
    'size.tiny': words.length <= 2 ? 1 : 0,
    'size.contentShare': words.length === 0 ? 0 : contentWords / words.length,
    'tech.terms': cap(countTechTerms(text), 5),
    'tech.properNouns': cap(tokens.filter((t) => t.pos === 'PROPN').length, 5),
    'tech.numbers': cap(tokens.filter((t) => t.kind === 'number' || t.pos === 'NUM').length, 4),
    'tech.sessionEntities': cap(sessionWords.size, 4),
    'shape.symbols': 1 - letters / visible,
    'shape.bullet': c.bullet ? 1 : 0,
    'shape.document': c.document ? 1 : 0,
    // "Language: Kotlin 2.0 on the JVM 21", "Deploy target: Fly.io": a named property and its value.
    'shape.labelValue': isLabelValue ? 1 : 0,
    // "DON'T", "NEVER EVER", "!": shouting, not an acronym.
    'shape.emphasis': /!|\b[A-Z]{2,}'[A-Z]+\b|\b[A-Z]{3,}\s+[A-Z]{3,}\b/.test(text) ? 1 : 0,
    // Where in the session its message was: a statement's place inside a long message is no evidence.
    'place.position': session.messages > 1 ? (session.position.get(c.messageId) ?? 0) / (session.messages - 1) : 0,
    // How many messages the session holds: in a short one each statement weighs more than one of
    // hundreds. Messages, not statements: a long message is no longer session.
    'place.sessionSize': Math.log1p(session.messages),
    // The fit's own: written sessions carry more labels per statement than real ones; the fit sets it
    // for them, so their share of wanted and junk does not leak into the weights. Real sessions: 0.
    'corpus.synthetic': 0,
    'said.again': cap(c.repeats, 3),
    'echo.count': Math.log1p(echo.count),
    'echo.span': echo.span,
    'lang.other': english ? 0 : 1,
    ...(Object.fromEntries(KINDS.map((k) => [`kind.${k}`, k === kind ? 1 : 0])) as Record<`kind.${Kind}`, number>),
  };
  return { kind, features: FEATURES.map((f) => v[f]) };
}

/** The feature vector of one candidate, in FEATURES order. */
export const featuresOf = (c: Candidate, session: SessionContext): number[] => readCandidate(c, session).features;
