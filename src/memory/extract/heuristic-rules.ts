/**
 * The pattern table of the heuristic extractor. Patterns run on a lower-cased sentence with
 * fillers and a leading "please" removed; the first rule whose pattern and guard pass wins, so
 * the order goes from the most explicit markers to the weakest.
 */
import { FACT_RULES } from './fact-rules.js';
import type { RuleSpec } from './rule-spec.js';

/** Words a non-standing sentence needs, unless its rule says otherwise. */
const MIN_WORDS = 4;

/** Every rule has every field, so the loop over them sees one object shape and stays fast. */
export interface Rule extends Required<Omit<RuleSpec, 'unless'>> {
  unless: RegExp | null;
}

function rule(spec: RuleSpec): Rule {
  return {
    name: spec.name,
    pattern: spec.pattern,
    type: spec.type,
    importance: spec.importance,
    guard: spec.guard,
    project: spec.project ?? false,
    transient: spec.transient ?? false,
    polite: spec.polite ?? false,
    unless: spec.unless ?? null,
    minWords: spec.minWords ?? MIN_WORDS,
    concrete: spec.concrete ?? false,
  };
}

const I_NARRATES = /^i\s/;
const NARRATES_ALWAYS =
  /^(?:it|this|that|they|he|she|there)\b|\b(?:always|never)\s+(?:(?:was|were|is|are|has|had|have|been|did|does|got|gets|get|seems?|seemed|knew|know|thought|think|said|says|works?|happens|happened|fails|breaks|broke|forget|forgot|ends? up|run into|ran into|hit|see|saw|seen|done|gone|heard|known|stops?|the|a|an|same|so|too|like|again|ever)\b|\w+ed\b(?<!\bneed)(?<!\bembed)(?<!\bproceed)(?<!\bseed))/;

const SPECS: readonly RuleSpec[] = [
  {
    name: 'decided',
    pattern: /\b(?:we|i|the team)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)?(?:decided|agreed|settled on|chose|opted)\b|^decision\s*[:-]|^(?:the|our)\s+decision\s+(?:is|was)\b/,
    type: 'decision', importance: 0.75, guard: 'gentle', project: true,
  },
  {
    name: 'from-now-on',
    pattern: /\b(?:from now on|going forward|moving forward|from here on(?: out)?|in (?:the )?future|henceforth|from this point on)\b/,
    type: 'instruction', importance: 0.9, guard: 'standing',
  },
  {
    name: 'always-never',
    pattern: /(?:^|[,;:]\s*|\b(?:just|and|so|also|we|should|must|to|will|'ll|need to|have to|please)\s+)(?:always|never)\b(?!\s+mind\b)|\b(?:don't|do not) ever\b/,
    type: 'instruction', importance: 0.9, guard: 'standing',
    // Narration and complaints ("it never worked", "we always hit this") are not rules.
    unless: NARRATES_ALWAYS,
  },
  {
    name: 'whenever',
    pattern: /^(?:whenever|every time|each time|any ?time)\b|\b(?:by default|as a rule|as a general rule|without exception|in every (?:project|repo)|in all (?:my |our )?(?:projects|repos))\b|^in general\b/,
    type: 'instruction', importance: 0.85, guard: 'standing',
  },
  {
    name: 'prefer',
    pattern: /^(?:i|we)\s+(?:(?:really|generally|usually|strongly|much|definitely|also|do)\s+)?(?:prefer|would prefer|would rather|would like you to always|like to|love to|like|hate|dislike|don't like|do not like|can't stand|want you to always)\b|^(?:my|our)\s+(?:preference|preferred\s+\w+|coding style|style)\s+(?:is|are)\b|^prefer\b/,
    type: 'preference', importance: 0.8, guard: 'gentle',
    // Reactions to the work at hand ("I like how you did that") are not tastes.
    unless:
      /^(?:i|we)\s+(?:(?:really|also|do)\s+)?(?:like|love|hate|dislike|don't like)\s+(?:the|how|what|your|that|this|it|them|these|those|where|when)\b|\bprefer\s+(?:the\s+(?:first|second|third|last|other|former|latter|new|old|original|previous|current)\b|(?:option|approach|version|variant|yours?|that|this|it|them)\b)/,
  },
  {
    name: 'habit',
    pattern: /^i\s+(?:always|never|usually|generally|normally|tend to)\s+(?!(?:forget|get|see|wonder|thought|think|have|had|knew|know|mean|meant|said|say|try|tried|end up|run into|hit)\b)/,
    type: 'preference', importance: 0.8, guard: 'gentle',
  },
  {
    name: 'style',
    pattern: /^(?:keep|make)\s+(?:your\s+)?(?:answers|responses|replies|explanations|messages|summaries|comments|prs|pull requests|commits|commit messages)\s+\w+|^(?:be|stay)\s+(?:concise|brief|terse|succinct|direct|to the point)\b|^(?:reply|respond|answer|talk|write|speak)\s+(?:to me\s+)?(?:in|using)\s+(?:plain |british |american |simple )?(?:english|french|german|spanish|italian|portuguese|dutch|polish|japanese|chinese|korean|russian)\b|^(?:write|format)\s+(?:all\s+)?commit messages\b|^(?:use|follow)\s+(?:the\s+)?conventional commits\b/,
    type: 'instruction', importance: 0.8, guard: 'standing',
  },
  {
    name: 'change',
    pattern: /\b(?:switched|switching|migrated|migrating|transitioned|moved|moving|changed|upgraded)\s+(?:\S+\s+){0,3}?from\s+.+?\s+(?:over\s+)?to\b|\b(?:we|we've|we have|the team|the project|the repo|this repo)\s+(?:\w+\s+)?(?:switched|migrated|moved|transitioned)\s+(?:over\s+)?to\b|\bno longer\s+(?:use|uses|using|need|needs|support|supports|run on|runs on|deploy to|deploys to|depend on|depends on|rely on|relies on)\b|\b(?:don't|do not|doesn't|does not)\s+(?:use|need)\s+.+?\s+any ?(?:more|longer)\b|\breplaced\s+(?:by|with)\b|\b(?:we|we've|we have)\s+(?:\w+\s+)?replaced\s+\S+(?:\s+\S+){0,3}\s+(?:with|by)\b|\bin favou?r of\b/,
    type: 'decision', importance: 0.7, guard: 'gentle', project: true, unless: I_NARRATES,
  },
  {
    name: 'lets-go-with',
    pattern: /\b(?:let's|let us|we'll|we will|we're going to|we are going to|we're gonna)\s+(?:go with|use|stick with|switch to|move to|migrate to|adopt|standardi[sz]e on)\b|\b(?:going|went|go)\s+with\b.*\b(?:instead of|rather than|over|not)\b|^(?:we're\s+|we are\s+)?going with\b/,
    type: 'decision', importance: 0.7, guard: 'request', project: true, concrete: true,
  },
  {
    name: 'remember',
    pattern: /^(?:remember|keep in mind|bear in mind|for future reference|note for (?:the )?future)\b/,
    type: 'instruction', importance: 0.85, guard: 'standing',
  },
  {
    name: 'dont',
    pattern: /^(?:don't|do not|dont)\s+(?!(?:worry|bother|know|think|see|understand|care|mind|get|need|have|want|remember|forget|be|say|mean|like|love|hate|expect|believe|agree|panic|rush|stop)\b)|^avoid\s+\w+|^stop\s+\w+ing\b/,
    type: 'instruction', importance: 0.8, guard: 'request', minWords: 3,
  },
  {
    name: 'make-sure',
    pattern: /^(?:make sure|be sure) to\b/,
    type: 'instruction', importance: 0.8, guard: 'request',
  },
  {
    name: 'use-not',
    pattern: /^(?:use|stick to|stick with)\s+.+?(?:\binstead of\b|\brather than\b|,?\s+not\s+[\w`'"@./-]+(?:\s+[\w`'"@./-]+){0,3}$)/,
    type: 'instruction', importance: 0.8, guard: 'request', minWords: 3,
  },
  {
    name: 'please-use',
    pattern: /^(?:use|prefer|stick to|stick with)\s/,
    type: 'instruction', importance: 0.8, guard: 'request', polite: true,
  },
  {
    name: 'before-doing',
    pattern: /^(?:before|after)\s+(?:\w+ing\b|you \w+|we \w+)[^,]{0,60},\s*(?:always\s+)?(?:run|use|check|make sure|update|bump|rebase|squash|lint|format|test|ask|build|regenerate|add|re-?run|tag|sign|verify|clear|restart)\b/,
    type: 'instruction', importance: 0.8, guard: 'request',
    unless: /^(?:before|after)\s+(?:you're|you are|we're|you've|that's|this is|it's|you (?:fix|finish|are done))\b/,
  },
  {
    name: 'for-now',
    pattern: /^(?:for now|for the time being|until further notice|until (?:tomorrow|monday|tuesday|wednesday|thursday|friday|next week)|this week|today|tonight|at the moment),?\s+(?:don't|do not|skip|avoid|use|run|keep|leave|ignore|disable|deploy|push|merge|work)\b/,
    type: 'instruction', importance: 0.3, guard: 'request', transient: true,
  },
  ...FACT_RULES,
];

export const RULES: readonly Rule[] = SPECS.map(rule);
