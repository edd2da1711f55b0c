/**
 * What a sentence shows about itself, read from its parts of speech, lemmas and negation: is it a
 * question, an instruction, a standing rule, a statement about the project, a request about the
 * work in progress? The classifier weighs these; nothing here decides alone.
 */
import type { Sentence, Token } from '../nlp/index.js';
import { countTechTerms } from './tech-terms.js';
import * as L from './lexicon.js';
import { commandAt, hasSequence, labelValue, skipLead, STANDING_NOW, subjectOf } from './sentence-shape.js';

export interface Features {
  words: number;
  /** Nouns, proper nouns, verbs, adjectives and numbers that are not stop words. */
  content: number;
  /** Tool names, paths, commands, identifiers, versions, URLs. */
  tech: number;
  question: boolean;
  /** Opens with a verb in the base form (after "please", "always", "don't", "just"…). */
  imperative: boolean;
  /** The imperative's verb lemma. */
  verb?: string;
  negatedImperative: boolean;
  /** always, never, every time, from now on, by default… */
  standing: boolean;
  /** each, every, all, any used as quantifiers over things of the project. */
  universal: boolean;
  /** must, should, need to, have to, required. */
  modal: boolean;
  /** A general condition: "before committing", "after each question", "when X", "in case". */
  condition: boolean;
  /** I prefer / we like / I'd rather / I don't want… */
  preference: boolean;
  /** The person says they will do something themselves ("I'll commit", "frontend I will handle"). */
  reserves: boolean;
  /** Points at the work in progress: it, this, that, them, here, above. */
  pointing: number;
  /** now, yet, again, first, next, continue, proceed, retry… */
  momentary: number;
  /** Asks for information or an investigation: explain, show, check, look into… */
  infoRequest: boolean;
  /** A statement about the project: a non-pronoun (or "we"/"our X") subject with a present-tense verb. */
  declarative: boolean;
  /** Says what was chosen: decided, go with, instead of, rather than, switched from X to Y… */
  decision: boolean;
  /** A change of name, place or tool, told in the past ("I renamed", "we moved to"). */
  change: boolean;
  /** Narration of what happened ("it showed", "I tried") rather than how things are. */
  narrative: boolean;
  /** Thanks, praise, complaints, interjections. */
  chatter: boolean;
  /** A report on the current state of the work ("now it is showing", "still failing"). */
  status: boolean;
  /** A constraint that holds of a tool or system ("X doesn't support Y", "X requires Y"). */
  constraint: boolean;
  url: boolean;
  /** maybe, probably, I think… */
  hedge: boolean;
  /** An imperative that says what it is for ("run bd ready to find available work"). */
  purpose: boolean;
  /** About the team's workflow: commits, reviews, branches, releases, approvals. */
  workflow: boolean;
  /** "Any domain with…", "Every endpoint…", "All prices…": a rule over a kind of thing. */
  universalSubject: boolean;
  /** Defines the project: "our ui is light mode", "the stack is…", "Acme is a payments API". */
  definitional: boolean;
  /** The speaker's own: "our ui", "my project", "we". */
  ours: boolean;
  /** Asks to be asked first: "ask me before you push", "pause for my review", "wait for approval". */
  approvalGate: boolean;
  /** "We deploy to fly.io", "we use pnpm": what the team does, in the present. */
  teamPractice: boolean;
  /** How the assistant should talk or ask: "keep answers short", "be concise", "reply in English". */
  style: boolean;
  /** "Package manager for acme-api: pnpm": a named property and its value. */
  labelValue: boolean;
  /** "Remember that …": asked to be kept. */
  remember: boolean;
  /** "To release, run X then Y": how to do a recurring job. */
  procedure: boolean;
}

export function featuresOf(s: Sentence): Features {
  const tokens = s.tokens;
  const lower = tokens.map((t) => t.lower);
  const words = tokens.filter((t) => t.kind === 'word' || t.kind === 'number').length;
  const content = tokens.filter((t) => L.CONTENT_POS.has(t.pos) && !t.stop && t.kind !== 'punctuation').length;
  const vAt = s.english ? commandAt(tokens) : -1;
  const verb = vAt >= 0 ? (tokens[vAt] as Token).lemma : undefined;
  const negatedImperative =
    vAt >= 0 &&
    !L.REASSURING.has((tokens[vAt] as Token).lemma) &&
    // a prohibition needs a thing it is about: "never say never" and "don't change anything" have none
    tokens.slice(vAt + 1).some((t) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.kind === 'url') &&
    !tokens.slice(vAt + 1).some((t) => L.SWEEPING.has(t.lower)) &&
    (tokens.slice(0, vAt).some((t) => t.lemma === 'not' || t.lower === "n't" || t.lower === 'never' || t.lower === 'dont') ||
      L.AVOID_VERBS.has((tokens[vAt] as Token).lemma));
  const subject = subjectOf(tokens);
  const subjectAt = subject === undefined ? -1 : tokens.indexOf(subject);
  const possessed = subjectAt > 0 && L.POSSESSIVES.has((tokens[subjectAt - 1] as Token).lower);
  const verbs = tokens.filter((t) => t.pos === 'VERB' || t.pos === 'AUX');
  const copula = verbs.length > 0 && L.SETUP_VERBS.has((verbs[0] as Token).lemma);
  const pastVerb = verbs.some((t) => L.isPast(t));
  const presentVerb = verbs.some((t) => !L.isPast(t));
  const lemmas = new Set(tokens.map((t) => t.lemma));
  const has = (set: ReadonlySet<string>) => lower.some((w) => set.has(w));
  const count = (set: ReadonlySet<string>) => lower.filter((w) => set.has(w)).length;
  const firstPerson = subject !== undefined && (subject.lower === 'i' || subject.lower === 'we');
  const question =
    /\?\s*["')\]]*\s*$/.test(s.text) || (s.english && L.QUESTION_OPENERS.has(lower.find((w, i) => !skipLead(tokens[i] as Token)) ?? '') && vAt < 0);
  const preference =
    ((firstPerson && tokens.some((t) => L.PREFERENCE_VERBS.has(t.lemma))) || (vAt >= 0 && verb === 'prefer') || hasSequence(lower, L.PREFERENCE_PHRASES)) &&
    // "I prefer the second option" picks among what is on the table right now.
    !tokens.some((t) => L.CHOICE_WORDS.has(t.lower) && (t.pos === 'ADJ' || t.pos === 'NOUN' || t.pos === 'NUM'));
  const reserves = hasSequence(lower, L.RESERVES) && tokens.some((t) => L.RESERVABLE.has(t.lemma));
  // "that" introducing a clause ("remember that …") points at nothing.
  const pointing = tokens.filter(
    (t, i) => L.DEICTIC.has(t.lower) && t.pos !== 'SCONJ' && !(L.DEMONSTRATIVE.has(t.lower) && L.PROJECT_NOUNS.has(tokens[i + 1]?.lemma ?? '')),
  ).length;
  return {
    words,
    content,
    tech: countTechTerms(s.text),
    question,
    imperative: vAt >= 0,
    ...(verb !== undefined && { verb }),
    negatedImperative,
    // "Always good to hear", "it always fails": a marker with no rule behind it.
    standing:
      (has(L.STANDING_WORDS) || hasSequence(lower, L.STANDING_PHRASES)) && (vAt >= 0 || (subject !== undefined && !L.NARRATING_SUBJECTS.has(subject.lower))),
    universal: has(L.UNIVERSALS),
    modal: has(L.MODALS) || hasSequence(lower, L.MODAL_PHRASES),
    condition: hasSequence(lower, L.CONDITIONS) || tokens.some((t, i) => L.CONDITION_WORDS.has(t.lower) && (tokens[i + 1]?.lower.endsWith('ing') ?? false)),
    preference,
    reserves,
    pointing,
    // "let's go with zod" chooses; "go ahead" moves the task along.
    // In "to release, run X then Y", "then" orders steps.
    momentary:
      count(L.MOMENTARY) -
      (lower[0] === 'to' && lower.includes('then') ? 1 : 0) -
      // the "now" of "from now on" looks ahead
      (hasSequence(lower, STANDING_NOW) ? 1 : 0) +
      (verb !== undefined && L.MOMENTARY_VERBS.has(verb) && !hasSequence(lower, L.DECISION_PHRASES) ? 2 : 0),
    infoRequest: (verb !== undefined && L.INFO_VERBS.has(verb)) || hasSequence(lower.slice(0, 6), L.INFO_PHRASES),
    declarative: vAt < 0 && !question && presentVerb && subject !== undefined && (subject.pos !== 'PRON' || subject.lower === 'we' || subject.lower === 'it'),
    decision:
      tokens.some((t) => L.DECISION_LEMMAS.has(t.lemma) && (t.pos === 'VERB' || t.pos === 'NOUN')) ||
      // "instead of" chooses only when the command is a choice ("use X instead of Y"), not in "add a line saying …"
      (hasSequence(lower, L.DECISION_PHRASES) && (verb === undefined || L.CHOOSING.has(verb))) ||
      // "Keep SQLite", "stick with Render": keeping a named tool is a choice
      (verb !== undefined && L.KEEPING.has(verb) && tokens.slice(vAt + 1, vAt + 3).some((t) => t.pos === 'PROPN')),
    // A change told ("I renamed X to Y"), or asked for as a change of state ("move X from A to B").
    change:
      (tokens.some((t) => L.CHANGE_LEMMAS.has(t.lemma) && L.isPast(t)) &&
        (lemmas.has('from') || lemmas.has('to') || (lemmas.has('replace') && (lemmas.has('by') || lemmas.has('with')))) &&
        // "I switched to the feature branch" is moving around; "I renamed the project" changed it.
        (subject?.lower !== 'i' || tokens.some((t) => L.PROJECT_NOUNS.has(t.lemma) || t.pos === 'PROPN'))) ||
      (verb !== undefined && L.CHANGE_LEMMAS.has(verb) && lemmas.has('from')) ||
      // "We're moving from REST to gRPC": a change under way.
      (subject?.lower === 'we' && tokens.some((t) => L.CHANGE_LEMMAS.has(t.lemma) && t.lower.endsWith('ing')) && lemmas.has('from') && lemmas.has('to')),
    narrative: pastVerb && !presentVerb && (subject === undefined || subject.pos === 'PRON'),
    chatter: has(L.CHATTER),
    // "is returning 500s", "still failing", "we have this problem": how things are going right now.
    status:
      hasSequence(lower, L.STATUS_PHRASES) ||
      lemmas.has('still') ||
      (tokens.some((t, i) => t.pos === 'AUX' && t.lemma === 'be' && tokens[i + 1]?.pos === 'VERB' && (tokens[i + 1] as Token).lower.endsWith('ing')) &&
        !tokens.some((t) => L.CHANGE_LEMMAS.has(t.lemma))) ||
      (tokens.some((t) => L.PROBLEM_NOUNS.has(t.lemma)) && (lemmas.has('have') || tokens.some((t) => L.DEICTIC.has(t.lower)))),
    constraint: hasSequence(lower, L.CONSTRAINT_PHRASES),
    url: tokens.some((t) => t.kind === 'url'),
    hedge: has(L.HEDGES) || hasSequence(lower, L.HEDGE_PHRASES),
    purpose: vAt >= 0 && tokens.some((t, i) => i > vAt + 1 && t.lower === 'to' && (tokens[i + 1]?.pos === 'VERB' || tokens[i + 1]?.pos === 'AUX')),
    workflow:
      (verb !== undefined && L.WORKFLOW.has(verb)) ||
      tokens.some((t) => L.WORKFLOW.has(t.lemma) && (t.pos === 'VERB' || t.pos === 'NOUN' || t.pos === 'PROPN') && !L.isPast(t)),
    universalSubject: subjectAt >= 1 && (L.UNIVERSALS.has((tokens[subjectAt - 1] as Token).lower) || (tokens[subjectAt - 1] as Token).lower === 'no'),
    // "The stack is …", "Acme is a …", "it's an Elixir app on …": what the project is.
    definitional:
      vAt < 0 &&
      !question &&
      copula &&
      subject !== undefined &&
      (L.ASPECT_NOUNS.has(subject.lemma) ||
        L.ASPECT_NOUNS.has(subject.lower) ||
        (subject.pos === 'PROPN' && subjectAt <= 1 && verbs[0]?.lemma === 'be') ||
        ((subject.lower === 'it' || subject.lower === 'this') && tokens.slice(subjectAt + 1).some((t) => t.pos === 'NOUN' && L.PROJECT_NOUNS.has(t.lemma)))),
    ours: possessed || subject?.lower === 'we',
    approvalGate: hasSequence(lower, L.APPROVAL_GATES),
    // "We deploy to fly.io": what the team does; "we need X", "we want Y" ask for something.
    teamPractice: subject?.lower === 'we' && vAt < 0 && presentVerb && !pastVerb && !question && !verbs.some((t) => L.WANTING.has(t.lemma)),
    style:
      verb !== undefined &&
      (L.STYLE_VERBS.has(verb) || verb === 'use') &&
      // how it talks to the person; commit messages are the project's convention
      tokens.some((t, i) => (L.STYLE_OBJECTS.has(t.lemma) && tokens[i - 1]?.lemma !== 'commit') || L.STYLE_ADJECTIVES.has(t.lower) || L.LANGUAGES.has(t.lower)),
    labelValue: labelValue(tokens),
    remember: hasSequence(lower.slice(0, 4), L.REMEMBER_PHRASES),
    procedure: vAt > 1 && lower[0] === 'to' && tokens[1]?.kind === 'word' && tokens.slice(0, vAt).some((t) => t.text === ','),
  };
}
